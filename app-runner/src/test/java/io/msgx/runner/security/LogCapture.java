package io.msgx.runner.security;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every log event of this JVM from {@link #start} to {@link #close}, at the level asked for and above, with its
 * formatted message and stack trace: what an operator's log file would hold. The root logger's level is lowered
 * for the while, so events that the test configuration would drop are seen too.
 */
public final class LogCapture extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger root;
    private final Level previousLevel;
    private final Level threshold;

    private LogCapture(Level threshold) {
        this.threshold = threshold;
        var context = (LoggerContext) LoggerFactory.getILoggerFactory();
        root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        previousLevel = root.getLevel();
        setContext(context);
        setName("security-log-capture");
    }

    /** Capture events at {@code threshold} and above. */
    public static LogCapture start(Level threshold) {
        var capture = new LogCapture(threshold);
        capture.start();
        capture.root.addAppender(capture);
        if (capture.root.getLevel().isGreaterOrEqual(threshold) && !capture.root.getLevel().equals(threshold)) {
            capture.root.setLevel(threshold);
        }
        return capture;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (!event.getLevel().isGreaterOrEqual(threshold)) {
            return;
        }
        var line = new StringBuilder(event.getLevel() + " " + event.getLoggerName() + " - " + event.getFormattedMessage());
        if (event.getThrowableProxy() != null) {
            line.append('\n').append(ThrowableProxyUtil.asString(event.getThrowableProxy()));
        }
        event.getMDCPropertyMap().forEach((key, value) -> line.append(" [").append(key).append('=').append(value).append(']'));
        lines.add(line.toString());
    }

    /** The captured lines so far, each with its level, logger, message and stack trace. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The captured lines as one text. */
    public String text() {
        return String.join("\n", lines);
    }

    @Override
    public void close() {
        root.detachAppender(this);
        root.setLevel(previousLevel);
        stop();
    }
}
