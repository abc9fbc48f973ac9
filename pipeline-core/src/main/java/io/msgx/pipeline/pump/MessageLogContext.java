package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ProcRecord;
import org.slf4j.MDC;

import java.util.List;

/**
 * The MDC fields of the pump's log lines (docs/operations.md, Logs): {@value #MSG_ID} on every line about one
 * message, on the single-message path and inside a group alike; {@value #MSG_GROUP} ({@code first..last}) on the
 * lines about a group as a whole. A scope puts its field and, when closed, puts back what was there before, so a
 * message's scope inside a group's leaves the group's field as it was.
 */
public final class MessageLogContext implements AutoCloseable {

    /** The MDC key of the message a line is about. */
    public static final String MSG_ID = "msgId";
    /** The MDC key of the group (its first and last mailbox IDs, {@code 101..110}) a line is about. */
    public static final String MSG_GROUP = "msgGroup";

    private final String key;
    private final String previous;

    private MessageLogContext(String key, String value) {
        this.key = key;
        this.previous = MDC.get(key);
        MDC.put(key, value);
    }

    /** Lines logged until {@link #close()} are about message {@code msgId}. */
    public static MessageLogContext message(long msgId) {
        return new MessageLogContext(MSG_ID, Long.toString(msgId));
    }

    /** Lines logged until {@link #close()} are about the group {@code run} (not empty), as {@code first..last}. */
    static MessageLogContext group(List<ProcRecord> run) {
        return new MessageLogContext(MSG_GROUP, run.get(0).msgId() + ".." + run.get(run.size() - 1).msgId());
    }

    @Override
    public void close() {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }
}
