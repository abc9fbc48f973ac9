package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.port.Mailbox;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An in-memory {@link Mailbox} for pipeline tests. It passes {@link MailboxContract} like the JDBC adapter does:
 * IDs ascend with holes allowed, the mark is written once, instants are kept to the millisecond (like
 * {@code DATETIME(3)}).
 *
 * <p>Besides the port it offers the AODB side's hooks ({@link #appendInbound}, {@link #putInbound} for holes and late
 * commits, {@link #deleteInbound}, {@link #setStatus} for the mailbox status, {@code VALID} by default as the column's
 * default) and what tests inspect ({@link #processedMarkOf}, {@link #outbound()}). The
 * hooks always work; {@link #setUnavailable(boolean) setUnavailable(true)} makes every port method throw
 * {@link MailboxUnavailableException} until it is switched back, as a mailbox that is down would.
 *
 * <p>Thread-safe: every method is synchronized on the instance.
 */
public final class InMemoryMailbox implements Mailbox {

    /** One row of {@code COUTMSGS} as written by {@link #appendOutbound}; {@code sentAt} stays null here. */
    public record StoredOutbound(long id, OutboundMessage message, Instant sentAt) {
    }

    private record Inbound(String xml, Instant receivedAt, Instant processedAt, String status) {
    }

    /** The status column's default (sis-format §1). */
    public static final String DEFAULT_STATUS = "VALID";

    private final TreeMap<Long, Inbound> inbound = new TreeMap<>();
    private final TreeMap<Long, StoredOutbound> outbound = new TreeMap<>();
    private long nextInboundId = 1;
    private long nextOutboundId = 1;
    private boolean unavailable;
    private final java.util.Set<Long> unreadable = new java.util.HashSet<>();

    // ---------------------------------------------------------------- the port

    @Override
    public synchronized List<MailboxRow> readAfter(long watermark, int limit) {
        if (watermark < 0) {
            throw new IllegalArgumentException("watermark must be 0 or more, got " + watermark);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        failIfUnavailable("readAfter(watermark=" + watermark + ", limit=" + limit + ")");
        List<MailboxRow> rows = new ArrayList<>();
        for (Map.Entry<Long, Inbound> e : inbound.tailMap(watermark, false).entrySet()) {
            if (rows.size() == limit) {
                break;
            }
            rows.add(new MailboxRow(e.getKey(), e.getValue().receivedAt()));
        }
        return List.copyOf(rows);
    }

    @Override
    public synchronized Optional<MailboxContent> readContent(long id) {
        failIfUnavailable("readContent(id=" + id + ")");
        if (unreadable.contains(id)) {
            throw new MailboxRowUnreadableException("the text of row " + id + " cannot be read while the mailbox"
                    + " answers: made unreadable by the test", null);
        }
        return Optional.ofNullable(inbound.get(id)).map(row -> new MailboxContent(row.xml(), row.status()));
    }

    @Override
    public synchronized MarkOutcome markProcessed(long id, Instant processedAt) {
        Objects.requireNonNull(processedAt, "processedAt");
        failIfUnavailable("markProcessed(id=" + id + ")");
        Inbound row = inbound.get(id);
        if (row == null) {
            return MarkOutcome.MISSING_ROW;
        }
        if (row.processedAt() != null) {
            return MarkOutcome.ALREADY_MARKED;
        }
        inbound.put(id, new Inbound(row.xml(), row.receivedAt(), millis(processedAt), row.status()));
        return MarkOutcome.WRITTEN;
    }

    @Override
    public synchronized long appendOutbound(OutboundMessage message) {
        Objects.requireNonNull(message, "message");
        failIfUnavailable("appendOutbound(routingId=" + message.routingId() + ")");
        long id = nextOutboundId++;
        OutboundMessage stored = new OutboundMessage(message.xml(), message.routingId(), millis(message.insertedAt()));
        outbound.put(id, new StoredOutbound(id, stored, null));
        return id;
    }

    @Override
    public synchronized OptionalLong findOutbound(String marker, Instant insertedSince) {
        failIfUnavailable("findOutbound(" + marker + ")");
        return outbound.values().stream()
                .filter(o -> !o.message().insertedAt().isBefore(millis(insertedSince)) && o.message().xml().contains(marker))
                .mapToLong(StoredOutbound::id).findFirst();
    }

    @Override
    public synchronized OptionalLong minId() {
        failIfUnavailable("minId()");
        return inbound.isEmpty() ? OptionalLong.empty() : OptionalLong.of(inbound.firstKey());
    }

    @Override
    public synchronized OptionalLong maxId() {
        failIfUnavailable("maxId()");
        return inbound.isEmpty() ? OptionalLong.empty() : OptionalLong.of(inbound.lastKey());
    }

    // ---------------------------------------------------------------- the AODB side and test inspection

    /** Insert an inbound row under the next auto-increment ID (like the AODB side); returns that ID. */
    @Override
    public synchronized long appendInbound(String xml, Instant receivedAtOrNull) {
        long id = nextInboundId;
        putInbound(id, xml, receivedAtOrNull);
        return id;
    }

    /**
     * Insert an inbound row under an explicit ID: leave holes, or make a smaller ID visible after a larger one (a
     * late commit). Like AUTO_INCREMENT, the next {@link #appendInbound} ID moves above the largest ID ever used.
     *
     * @throws IllegalArgumentException when the ID is below 1 or already present
     */
    public synchronized void putInbound(long id, String xml, Instant receivedAtOrNull) {
        Objects.requireNonNull(xml, "xml");
        if (id < 1) {
            throw new IllegalArgumentException("mailbox IDs start at 1, got " + id);
        }
        if (inbound.containsKey(id)) {
            throw new IllegalArgumentException("inbound row " + id + " already exists");
        }
        inbound.put(id, new Inbound(xml, receivedAtOrNull == null ? null : millis(receivedAtOrNull), null,
                DEFAULT_STATUS));
        nextInboundId = Math.max(nextInboundId, id + 1);
    }

    /** Set the mailbox status of an existing row, as the AODB side may ({@code null} for {@code NULL}). */
    public synchronized void setStatus(long id, String status) {
        var row = inbound.get(id);
        if (row == null) {
            throw new IllegalArgumentException("no inbound row " + id);
        }
        inbound.put(id, new Inbound(row.xml(), row.receivedAt(), row.processedAt(), status));
    }

    /** Delete an inbound row, as the AODB side's housekeeping may; true when it existed. */
    public synchronized boolean deleteInbound(long id) {
        return inbound.remove(id) != null;
    }

    /** The processing mark of a row; empty when unmarked or when no row has that ID. */
    public synchronized Optional<Instant> processedMarkOf(long id) {
        return Optional.ofNullable(inbound.get(id)).map(Inbound::processedAt);
    }

    /** All outbound rows, by ascending ID. */
    public synchronized List<StoredOutbound> outbound() {
        return List.copyOf(outbound.values());
    }

    /** While true, every port method throws {@link MailboxUnavailableException}; the hooks keep working. */
    /** Make row {@code id}'s text unreadable while the mailbox answers, as a row-tied failure would (D-85). */
    public synchronized void setUnreadable(long id) {
        unreadable.add(id);
    }

    public synchronized void setUnavailable(boolean unavailable) {
        this.unavailable = unavailable;
    }

    public synchronized boolean isUnavailable() {
        return unavailable;
    }

    private void failIfUnavailable(String operation) {
        if (unavailable) {
            throw new MailboxUnavailableException("in-memory mailbox " + operation
                    + " failed: switched unavailable by the test (setUnavailable(true))", null);
        }
    }

    private static Instant millis(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
