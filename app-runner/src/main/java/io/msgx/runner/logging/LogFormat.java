package io.msgx.runner.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;

/**
 * How the runner's log lines look on stderr ({@code msgx.log.format}, decision D-75): {@link #TEXT}, the pattern of
 * {@code logback.xml}, or {@link #JSON}, one JSON object per line (Logback's {@link JsonEncoder}: {@code timestamp},
 * {@code level}, {@code threadName}, {@code loggerName}, {@code mdc} with {@code msgId}/{@code msgGroup},
 * {@code formattedMessage}, {@code throwable}).
 *
 * <p>Logback configures itself from {@code logback.xml} before the configuration is read, so the key takes effect
 * when the CLI has read it ({@link #apply()}, before the command logs anything of its own): the console appenders of
 * the root logger are replaced by one writing JSON to stderr. An application that embeds {@code MsgExchange} keeps
 * its own logging: the library never calls this.
 */
public enum LogFormat {

    /** The pattern of {@code logback.xml}: left as Logback configured it. */
    TEXT,
    /** One JSON object per line. */
    JSON;

    /** The name of the console appender {@link #JSON} puts on the root logger. */
    public static final String JSON_APPENDER = "JSON";

    /**
     * Make the root logger's console output this format. Does nothing for {@link #TEXT}, when it is in place already,
     * or when SLF4J is bound to another backend than Logback (an embedding application's choice).
     */
    public void apply() {
        if (this == TEXT || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        var root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        if (root.getAppender(JSON_APPENDER) != null) {
            return;
        }
        var encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithContext(false);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        var json = new ConsoleAppender<ILoggingEvent>();
        json.setContext(context);
        json.setName(JSON_APPENDER);
        json.setTarget("System.err");
        json.setEncoder(encoder);
        json.start();

        var consoles = new ArrayList<Appender<ILoggingEvent>>();
        root.iteratorForAppenders().forEachRemaining(appender -> {
            if (appender instanceof ConsoleAppender) {
                consoles.add(appender);
            }
        });
        root.addAppender(json);
        consoles.forEach(console -> {
            root.detachAppender(console);
            console.stop();
        });
    }
}
