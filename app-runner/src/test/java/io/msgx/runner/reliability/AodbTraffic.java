package io.msgx.runner.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.testing.SisMessages;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The AODB side under load: a thread that commits one message every {@code every} into {@code CMINMSGS}, round robin
 * over a set of flights — first a schedule that creates the flight, then stand changes, each to a new value. Every
 * message therefore changes its flight exactly once, so the expected end is known without a reference run: a
 * flight's {@code STATE_VERSION} is the number of its messages, its stand the last one sent, and its notifications
 * on the {@code msg} topic are versions 1..n in order.
 */
final class AodbTraffic implements AutoCloseable {

    private final Mailbox aodb;
    private final int flights;
    private final Duration every;
    private final SisMessages sis = new SisMessages();
    /** Per flight, the mailbox IDs of its messages in the order they were committed. */
    private final Map<String, List<Long>> idsByFlight = new LinkedHashMap<>();
    private final Map<String, String> lastStand = new LinkedHashMap<>();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final Thread writer;
    private volatile boolean stopping;
    private volatile boolean paused;
    /** Held while a message is written: {@link #pause()} waits on it for the write under way. */
    private final Object writing = new Object();
    private int fed;

    private AodbTraffic(Mailbox aodb, int flights, Duration every) {
        this.aodb = aodb;
        this.flights = flights;
        this.every = every;
        this.writer = new Thread(this::run, "aodb-traffic");
        writer.setDaemon(true);
    }

    /** Start writing one message every {@code every} over {@code flights} flights. */
    static AodbTraffic start(Mailbox aodb, int flights, Duration every) {
        var traffic = new AodbTraffic(aodb, flights, every);
        traffic.writer.start();
        return traffic;
    }

    private void run() {
        try {
            while (!stopping) {
                synchronized (writing) {
                    if (!paused) {
                        feedOne();
                    }
                }
                Thread.sleep(every.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.set(e);
        }
    }

    private void feedOne() {
        int n;
        synchronized (this) {
            n = fed;
        }
        var flid = Integer.toString(7001 + n % flights);
        var stand = "S" + n;
        boolean first = n < flights;
        var xml = first ? sis.schedule(fltr(flid, "11MAR240835", "FLNO", "CA" + flid, "STND", stand))
                : sis.flop(FlopSubtype.STND, flid, patch("STND", stand));
        long id = aodb.appendInbound(xml, null);
        synchronized (this) {
            idsByFlight.computeIfAbsent(flid, f -> new ArrayList<>()).add(id);
            lastStand.put(flid, stand);
            fed++;
        }
    }

    /**
     * Stop writing for a while (the mailbox's own server is about to go away: a write whose commit is lost with it
     * could not be told apart from one that never happened) and wait until no write is under way.
     */
    void pause() {
        paused = true;
        synchronized (writing) {
            // the write under way, if any, has ended
        }
    }

    /** Write again after {@link #pause()}. */
    void resume() {
        paused = false;
    }

    /** Messages committed so far. */
    synchronized int fed() {
        return fed;
    }

    /** Stop writing and wait for the writer; fails if the AODB side could not write. */
    void stop() throws InterruptedException {
        stopping = true;
        writer.join(10_000);
        if (failure.get() != null) {
            throw new AssertionError("the AODB side could not write: " + failure.get(), failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    /** Every mailbox ID written, ascending. */
    synchronized List<Long> ids() {
        return idsByFlight.values().stream().flatMap(List::stream).sorted().toList();
    }

    /**
     * The end state in our store, read through {@code pipeline}'s direct connection: every message written ended
     * {@code SUCCEEDED} (none failed, dead or open); each flight's version, stand and last message are the ones its
     * messages in mailbox order give; each change has exactly one notification (no message applied twice).
     */
    synchronized void assertStoreMatches(ProxiedPipeline pipeline) {
        assertThat(pipeline.count("select count(*) from proc_state")).as("every mailbox row enqueued once").isEqualTo(fed);
        assertThat(pipeline.count("select count(*) from proc_state where state = 'SUCCEEDED'"))
                .as("every message SUCCEEDED; none FAILED, DEAD or still open").isEqualTo(fed);
        assertThat(pipeline.count("select count(*) from proc_state where attempts > 0"))
                .as("no attempt was used up by an outage").isZero();
        assertFlightsMatch(pipeline);
    }

    /**
     * Each flight's version, stand and last message are the ones its messages in mailbox order give, and each change
     * has exactly one notification (no message applied twice).
     */
    synchronized void assertFlightsMatch(ProxiedPipeline pipeline) {
        for (var flight : idsByFlight.entrySet()) {
            var flid = flight.getKey();
            var ids = flight.getValue();
            assertThat(pipeline.count("select state_version from flight_schd where flid = '" + flid + "'"))
                    .as("STATE_VERSION of " + flid + ": one per message, none twice").isEqualTo(ids.size());
            assertThat(pipeline.count("select last_msg_id from flight_schd where flid = '" + flid + "'"))
                    .as("last message of " + flid + " (FIFO)").isEqualTo(ids.get(ids.size() - 1));
            assertThat(pipeline.count("select count(*) from flight_schd where flid = '" + flid + "' and stnd = '"
                    + lastStand.get(flid) + "'")).as("stand of " + flid + " is the last one sent").isEqualTo(1);
            assertThat(pipeline.count("select count(*) from msg_event where target = 'KAFKA:msg' and partition_key = '"
                    + flid + "'")).as("notifications of " + flid).isEqualTo(ids.size());
        }
    }

    /**
     * Kafka has every event: on the {@code msg} topic each flight has versions 1..n, and the last copy of each comes
     * in that order (docs/delivery.md). Delivery is at least once: a round whose confirmation was lost to a store
     * outage goes out again, so a consumer may see 1, 2, 1, 2, 3 — and, deduplicating by version, never goes back.
     * The {@code schd} topic's last record of each flight carries version n.
     */
    synchronized void assertKafkaMatches(ProxiedPipeline pipeline) throws Exception {
        var json = new ObjectMapper();
        var versions = new TreeMap<String, List<Long>>();
        for (var record : KafkaTestBroker.readAll(pipeline.msgTopic)) {
            versions.computeIfAbsent(record.key(), k -> new ArrayList<>())
                    .add(json.readTree(record.value()).get("stateVersion").asLong());
        }
        var latest = new TreeMap<String, Long>();
        for (var record : KafkaTestBroker.readAll(pipeline.schdTopic)) {
            latest.put(record.key(), json.readTree(record.value()).get("stateVersion").asLong());
        }
        for (var flight : idsByFlight.entrySet()) {
            var seen = versions.getOrDefault(flight.getKey(), List.of());
            var lastCopies = new ArrayList<Long>();
            for (int i = 0; i < seen.size(); i++) {
                if (!seen.subList(i + 1, seen.size()).contains(seen.get(i))) {
                    lastCopies.add(seen.get(i));
                }
            }
            assertThat(lastCopies).as("msg topic of " + flight.getKey() + ", the last copy of each version in the "
                    + "order received (all of them: " + seen + ")")
                    .isEqualTo(java.util.stream.LongStream.rangeClosed(1, flight.getValue().size()).boxed().toList());
            assertThat(latest.get(flight.getKey())).as("schd topic of " + flight.getKey())
                    .isEqualTo((long) flight.getValue().size());
        }
    }
}
