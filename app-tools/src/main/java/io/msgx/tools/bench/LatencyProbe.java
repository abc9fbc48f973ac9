package io.msgx.tools.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Live load: feeds messages one by one, each in its own mailbox transaction, at a steady rate, and records the
 * instant right after each commit (the feeder's clock). Afterwards it matches every message by its mailbox ID with
 * what the pipeline recorded in PostgreSQL:
 * <ul>
 *   <li>commit → acknowledged by Kafka: the latest {@code MSG_EVENT.SENT_AT} of the message's {@code KAFKA:msg}
 *       notifications (the dispatcher writes it right after the broker's {@code acks=all} acknowledgement, so it is
 *       the acknowledgement time plus the few milliseconds of that update). Messages that change no flight
 *       (duplicates, ignored, malformed, unchanged) publish nothing and have no such figure.</li>
 *   <li>commit → terminal: {@code PROC_STATE.UPDATED_AT} of the message's terminal state, for every message.</li>
 * </ul>
 * Both clocks are this machine's, so the differences are meaningful to the millisecond.
 */
final class LatencyProbe {

    private final MailboxFiller filler;
    private final Clock clock;

    LatencyProbe(MailboxFiller filler, Clock clock) {
        this.filler = filler;
        this.clock = clock;
    }

    /** What the feeder wrote: each mailbox ID with its commit instant. */
    record Fed(long[] ids, Instant[] committedAt, long nanos, double targetRate) {
        int count() {
            return ids.length;
        }

        double achievedRate() {
            return nanos == 0 ? 0 : ids.length / (nanos / 1e9);
        }

        long firstId() {
            return ids.length == 0 ? 0 : Arrays.stream(ids).min().orElse(0);
        }

        long lastId() {
            return ids.length == 0 ? 0 : Arrays.stream(ids).max().orElse(0);
        }
    }

    /** Feed at {@code rate} messages per second for {@code duration}, one committed insert per message. */
    Fed feed(Connection mailbox, SimulatedTraffic traffic, double rate, Duration duration) throws SQLException,
            InterruptedException {
        int total = (int) Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
        var ids = new long[total];
        var committed = new Instant[total];
        long periodNanos = (long) (1e9 / rate);
        mailbox.setAutoCommit(true);
        long start = System.nanoTime();
        try (var single = filler.prepareSingle(mailbox)) {
            for (int i = 0; i < total; i++) {
                long due = start + i * periodNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                ids[i] = filler.insertOne(single, traffic.next());
                committed[i] = clock.instant();
            }
        }
        return new Fed(ids, committed, System.nanoTime() - start, rate);
    }

    /** The matched figures of one live run. */
    record Matched(Latencies commitToAck, Latencies commitToTerminal, int withoutEvents, int notTerminal) {
    }

    Matched match(DataSource store, String schema, Fed fed) throws SQLException {
        var committed = new HashMap<Long, Instant>();
        for (int i = 0; i < fed.count(); i++) {
            committed.put(fed.ids()[i], fed.committedAt()[i]);
        }
        var acked = new ArrayList<Long>();
        var terminal = new ArrayList<Long>();
        Map<Long, Instant> sent = query(store, "SELECT msg_id, MAX(sent_at) FROM \"" + schema + "\".msg_event "
                + "WHERE target = 'KAFKA:msg' AND status = 'SENT' AND msg_id BETWEEN ? AND ? GROUP BY msg_id", fed);
        Map<Long, Instant> ended = query(store, "SELECT msg_id, updated_at FROM \"" + schema + "\".proc_state "
                + "WHERE state IN ('SUCCEEDED', 'SKIPPED', 'DEAD') AND msg_id BETWEEN ? AND ?", fed);
        committed.forEach((id, at) -> {
            var ack = sent.get(id);
            if (ack != null) {
                acked.add(Duration.between(at, ack).toNanos() / 1000);
            }
            var end = ended.get(id);
            if (end != null) {
                terminal.add(Duration.between(at, end).toNanos() / 1000);
            }
        });
        return new Matched(Latencies.of(acked), Latencies.of(terminal), fed.count() - acked.size(),
                fed.count() - terminal.size());
    }

    private static Map<Long, Instant> query(DataSource store, String sql, Fed fed) throws SQLException {
        var result = new HashMap<Long, Instant>();
        try (var connection = store.getConnection(); var query = connection.prepareStatement(sql)) {
            query.setLong(1, fed.firstId());
            query.setLong(2, fed.lastId());
            try (var rows = query.executeQuery()) {
                while (rows.next()) {
                    var at = rows.getObject(2, OffsetDateTime.class);
                    if (at != null) {
                        result.put(rows.getLong(1), at.toInstant());
                    }
                }
            }
        }
        return result;
    }
}
