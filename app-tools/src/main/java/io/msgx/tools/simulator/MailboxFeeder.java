package io.msgx.tools.simulator;

import io.msgx.pipeline.port.Mailbox;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Writes a simulated day into a {@link Mailbox} as the AODB side does ({@link Mailbox#appendInbound}), all at once
 * or chunk by chunk, so a demo can keep feeding while the pipeline runs.
 *
 * <p>{@code CMINMSGS_DATE_RECEIVED} is the message's time on the timeline, in the airport's zone, plus the AODB
 * side's lag (0.1–3 s); for a share of the messages (2 % by default) it is NULL, as the AODB side sometimes leaves
 * it. Which ones is decided by the day's seed, whatever the chunking.
 */
public final class MailboxFeeder {

    /** The share of messages written without a receive time by default. */
    public static final double DEFAULT_UNRECORDED_SHARE = 0.02;

    private final Mailbox mailbox;
    private final ZoneId airportZone;
    private final double unrecordedShare;

    public MailboxFeeder(Mailbox mailbox, ZoneId airportZone) {
        this(mailbox, airportZone, DEFAULT_UNRECORDED_SHARE);
    }

    public MailboxFeeder(Mailbox mailbox, ZoneId airportZone, double unrecordedShare) {
        this.mailbox = Objects.requireNonNull(mailbox, "mailbox");
        this.airportZone = Objects.requireNonNull(airportZone, "airportZone");
        if (!(unrecordedShare >= 0.0 && unrecordedShare <= 1.0)) {
            throw new IllegalArgumentException("unrecordedShare must be between 0 and 1, got " + unrecordedShare);
        }
        this.unrecordedShare = unrecordedShare;
    }

    /** One message as written: its mailbox ID ({@code CMINMSGS_ID}) and its receive time (may be null). */
    public record FedMessage(long mailboxId, SimulatedMessage message, Instant receivedAt) {
    }

    /** Write the whole day; returns what was written, in mailbox order. */
    public List<FedMessage> feedAll(AirportDay day) {
        var feed = open(day);
        feed.feedRest();
        return feed.fed();
    }

    /** Start feeding a day chunk by chunk. */
    public Feed open(AirportDay day) {
        return new Feed(day);
    }

    /** A day being written into the mailbox, from its first message on. Not thread-safe. */
    public final class Feed {

        private final List<SimulatedMessage> messages;
        private final SplittableRandom random;
        private final List<FedMessage> fed = new ArrayList<>();

        private Feed(AirportDay day) {
            this.messages = day.messages();
            this.random = new SplittableRandom(day.settings().seed() ^ 0x6D61696C626F78L);
        }

        /** Write up to {@code count} more messages; returns what was written now. */
        public List<FedMessage> feedNext(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("count must be at least 1, got " + count);
            }
            var now = new ArrayList<FedMessage>();
            while (now.size() < count && fed.size() < messages.size()) {
                var message = messages.get(fed.size());
                var receivedAt = receivedAt(message);
                var id = mailbox.appendInbound(message.xml(), receivedAt);
                var written = new FedMessage(id, message, receivedAt);
                fed.add(written);
                now.add(written);
            }
            return now;
        }

        /** Write everything not written yet. */
        public List<FedMessage> feedRest() {
            return remaining() == 0 ? List.of() : feedNext(remaining());
        }

        public int remaining() {
            return messages.size() - fed.size();
        }

        /** Everything written so far, in mailbox order. */
        public List<FedMessage> fed() {
            return List.copyOf(fed);
        }

        private Instant receivedAt(SimulatedMessage message) {
            boolean unrecorded = random.nextDouble() < unrecordedShare;
            long lagMillis = random.nextLong(100, 3_000);
            return unrecorded ? null
                    : message.writtenAt().atZone(airportZone).toInstant().plus(Duration.ofMillis(lagMillis));
        }
    }
}
