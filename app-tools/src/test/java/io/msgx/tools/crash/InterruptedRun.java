package io.msgx.tools.crash;

import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.tools.simulator.AirportDay;
import io.msgx.tools.simulator.MailboxFeeder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the suites that interrupt the runner share (kill -9, {@link CrashRecoveryIT}; freezes, {@link FreezeRecoveryIT}):
 * the same simulated day run once uninterrupted, in this JVM, as the reference, and once by the runner processes the
 * test interrupts; and the checks that the interrupted run ends exactly where the reference ends.
 *
 * <p>The checks: no mailbox ID lost and each ended the same way; every flight's main row and lists (so its
 * {@code STATE_VERSION}) the same; changes committed in mailbox-ID order (FIFO), per flight the same notifications in
 * the same order; the {@code msg} topic carries all of them, the last copy of each in that order (earlier copies are
 * at-least-once repeats); the {@code schd} topic, compacted, is {@code FLIGHT_SCHD}; every row is marked processed in
 * the mailbox.
 */
final class InterruptedRun {

    static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");
    static final LocalDate OPERATION_DAY = LocalDate.of(2024, 3, 11);

    /** The three topics of an interrupted run, fresh for it. */
    record Topics(String msg, String schd, String reference) {

        static Topics fresh(String prefix) throws Exception {
            var topics = new Topics(KafkaTestBroker.uniqueTopic(prefix + "-msg"),
                    KafkaTestBroker.uniqueTopic(prefix + "-schd"), KafkaTestBroker.uniqueTopic(prefix + "-reference"));
            KafkaTestBroker.createTopics(3, topics.msg());
            KafkaTestBroker.createCompactedTopics(3, topics.schd(), topics.reference());
            return topics;
        }
    }

    private final RealServices run;
    private final RealServices reference;

    /** {@code run}: the schema and mailbox of the interrupted run; {@code reference}: the uninterrupted run's. */
    InterruptedRun(RealServices run, RealServices reference) {
        this.run = run;
        this.reference = reference;
    }

    /** The whole day written first, then the pipeline run in this JVM until every message ended; its IDs. */
    List<Long> referenceRun(AirportDay day) throws Exception {
        var fed = new MailboxFeeder(reference.mailbox(), AIRPORT).feedAll(day);
        var keys = new LinkedHashMap<>(runnerKeys(reference));
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.start();
            await("the reference run ends every message", drainTimeout(fed.size()), () -> {
                var status = exchange.status();
                return status.watermark() == fed.get(fed.size() - 1).mailboxId() && status.backlog() == 0;
            });
        }
        return fed.stream().map(MailboxFeeder.FedMessage::mailboxId).toList();
    }


    /**
     * The configuration the interrupted run and its reference share: jobs paced fast so a kill often finds each of them at work (small dispatch
     * and backfill batches, short periods), and no flight leaving for history during the test (the
     * simulated day lies in the past).
     */
    static Map<String, String> runnerKeys(RealServices services) {
        var keys = services.runnerKeys(); // without Kafka: the reference run keeps its events in the outbox
        keys.put(Keys.HTTP_PORT, "0");
        keys.put(Keys.POLL_INTERVAL, "100ms");
        keys.put(Keys.DISPATCH_BATCH, "40");
        keys.put(Keys.DISPATCH_INTERVAL, "200ms");
        keys.put(Keys.BACKFILL_BATCH, "50");
        keys.put(Keys.JOBS_BACKFILL, "300ms");
        keys.put(Keys.JOBS_STANDBY_POLL, "200ms");
        // A restart after a kill waits for the killed runner's lease to run out (D-108): kept short here.
        keys.put(Keys.LEASE_DURATION, "2s");
        keys.put(Keys.LEASE_RENEW_INTERVAL, "500ms");
        keys.put(Keys.JOBS_HOUSEKEEPING, "1h");
        keys.put(Keys.HISTORY_DAY_RETENTION, "36500d");
        return keys;
    }

    /**
     * The interrupted run's configuration file in {@code logs}, named {@code name}: {@link #runnerKeys}, its store
     * reached at {@code storeUrl} under {@code applicationName} (which lets {@link WorkInHand} find its open
     * transactions), publishing to {@code topics}; then {@code changes} made to the keys.
     */
    Path configFile(Path logs, String name, String storeUrl, String applicationName, Topics topics,
                    Consumer<Map<String, String>> changes) throws IOException {
        var keys = runnerKeys(run);
        keys.put(Keys.STORE_URL, storeUrl + (storeUrl.contains("?") ? "&" : "?") + "ApplicationName=" + applicationName);
        keys.remove(Keys.KAFKA_ENABLED);
        keys.put(Keys.KAFKA_BOOTSTRAP, KafkaTestBroker.bootstrapServers());
        keys.put(Keys.KAFKA_TOPIC_MSG, topics.msg());
        keys.put(Keys.KAFKA_TOPIC_SCHD, topics.schd());
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, topics.reference());
        changes.accept(keys);
        var file = logs.resolve(name);
        Files.writeString(file, keys.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n")), StandardCharsets.UTF_8);
        return file;
    }

    /** Every message ended, every event sent, every mailbox row marked: nothing left for a runner to do. */
    boolean drained(int total) {
        try {
            return run.countInPostgres("select count(*) from proc_state where state in ('SUCCEEDED', 'SKIPPED', "
                    + "'DEAD')") == total
                    && run.countInPostgres("select count(*) from msg_event where status <> 'SENT'") == 0
                    && run.countInPostgres("select count(*) from proc_state where backfill_at is null") == 0;
        } catch (Exception e) {
            return false;
        }
    }

    static Duration drainTimeout(int messages) {
        return Duration.ofSeconds(60 + messages / 20);
    }

    /**
     * The interrupted run ended where the reference ended ({@code expected}): every check of the class comment on
     * what was {@code fed} to its mailbox, its store ({@code actual}) and its topics, read to their ends.
     */
    void assertEndsAsTheReference(List<MailboxFeeder.FedMessage> fed, List<Long> referenceIds, StoreContents actual,
                                  StoreContents expected, TopicContents msg, TopicContents schd) throws Exception {
        var ids = fed.stream().map(MailboxFeeder.FedMessage::mailboxId).toList();
        assertThat(ids).as("the same input gets the same mailbox IDs in both mailboxes").isEqualTo(referenceIds);
        assertNoMessageLost(fed, actual);
        assertThat(differences(actual.outcomes(), expected.outcomes()))
                .as("messages that ended otherwise than in the uninterrupted run").isEmpty();
        assertThat(actual.countPerState()).isEqualTo(expected.countPerState());

        assertThat(actual.flightsDifferingFrom(expected)).as("flights whose state differs from the uninterrupted run")
                .isEmpty();
        assertThat(actual.versions()).isEqualTo(expected.versions());
        assertFifo(actual, expected);
        assertMsgTopicCarriesEveryNotificationInOrder(actual, msg);
        assertSchdTopicIsFlightSchd(actual, expected, schd);
        assertEveryRowMarkedInMailbox(fed.size());
    }

    /** Every mailbox ID has a processing record, none is open, and each ended as its kind says. */
    private static void assertNoMessageLost(List<MailboxFeeder.FedMessage> fed, StoreContents actual) {
        var firstIdOf = new LinkedHashMap<String, Long>();
        for (var message : fed) {
            var outcome = actual.outcomes().get(message.mailboxId());
            var what = "mailbox ID " + message.mailboxId() + " (" + message.message().kind() + " "
                    + message.message().description() + ") → " + outcome;
            assertThat(outcome).as("mailbox ID %d has a processing record", message.mailboxId()).isNotNull();
            var state = outcome.substring(0, outcome.indexOf(' '));
            switch (message.message().kind()) {
                case SCHEDULE, ADFT, FLOP, FDEL, REFERENCE -> assertThat(state).as(what).isEqualTo("SUCCEEDED");
                case DUPLICATE -> assertThat(outcome).as(what)
                        .startsWith("SKIPPED null duplicate-of:" + firstIdOf.get(message.message().xml()));
                case IGNORED -> assertThat(outcome).as(what).startsWith("SKIPPED null ignored:");
                case MALFORMED -> assertThat(outcome).as(what).startsWith("DEAD MALFORMED");
            }
            firstIdOf.putIfAbsent(message.message().xml(), message.mailboxId());
        }
        assertThat(actual.outcomes()).as("no processing record for a message nobody wrote").hasSize(fed.size());
    }

    /**
     * FIFO: the changes were committed in mailbox-ID order, all flights together (outbox EVENT_ID order); per flight
     * the notifications come from mailbox IDs in increasing order, with versions 1, 2, 3 ... up to the flight's
     * STATE_VERSION, and are those of the uninterrupted run.
     */
    private static void assertFifo(StoreContents actual, StoreContents expected) {
        assertThat(actual.commitOrder()).as("mailbox IDs of the changes in commit order").isSorted()
                .isEqualTo(expected.commitOrder());
        actual.notifications().forEach((flid, notifications) -> {
            for (int i = 0; i < notifications.size(); i++) {
                assertThat(notifications.get(i).stateVersion()).as("version of %s's notification %d", flid, i + 1)
                        .isEqualTo(i + 1L);
                if (i > 0) {
                    assertThat(notifications.get(i).msgId()).as("%s: notification %d comes from a later message than "
                            + "the one before", flid, i + 1).isGreaterThan(notifications.get(i - 1).msgId());
                }
            }
            assertThat((long) notifications.size()).as("%s: one notification per version", flid)
                    .isEqualTo(actual.versions().get(flid));
        });
        assertThat(withoutRunTimes(actual.notifications())).as("per flight, the notifications of the uninterrupted run")
                .isEqualTo(withoutRunTimes(expected.notifications()));
    }

    /**
     * The msg topic holds, per flight, every notification of the outbox and no other, and the last copy of each comes
     * in outbox order (docs/delivery.md, D-35). Copies before it are at-least-once repeats: a round sent and
     * acknowledged, then the runner killed before it confirmed the round, so the next runner sends that flight's
     * unconfirmed notifications again; a consumer deduplicating by {@code stateVersion} drops them.
     */
    private static void assertMsgTopicCarriesEveryNotificationInOrder(StoreContents actual, TopicContents msg) {
        assertThat(msg.perKey().keySet()).isEqualTo(actual.notifications().keySet());
        msg.perKey().forEach((flid, values) -> {
            var expected = actual.notifications().get(flid).stream().map(StoreContents.Notification::payload).toList();
            var received = values.stream().map(InterruptedRun::withoutEventId).toList();
            assertThat(new HashSet<>(received)).as("the notifications of %s on the msg topic", flid)
                    .isEqualTo(new HashSet<>(expected));
            var lastCopies = new ArrayList<String>();
            for (int i = 0; i < received.size(); i++) {
                if (received.lastIndexOf(received.get(i)) == i) {
                    lastCopies.add(received.get(i));
                }
            }
            assertThat(lastCopies).as("the last copy of each notification of %s, in the order received", flid)
                    .isEqualTo(expected);
        });
    }

    /** Each flight's notifications without their {@code updatedAt}, which differs between any two runs. */
    private static Map<String, List<StoreContents.Notification>> withoutRunTimes(
            Map<String, List<StoreContents.Notification>> notifications) {
        var without = new java.util.TreeMap<String, List<StoreContents.Notification>>();
        notifications.forEach((flid, list) -> without.put(flid, list.stream().map(n -> new StoreContents.Notification(
                n.msgId(), n.stateVersion(), StoreContents.withoutRunTime(n.payload()))).toList()));
        return without;
    }

    /** The most versions one flight's msg records went back at once (a repeated run after a kill); 0 if never. */
    static long largestStepBack(TopicContents msg) {
        long largest = 0;
        for (var values : msg.perKey().values()) {
            long highest = 0;
            for (var value : values) {
                long version = versionOf(value);
                largest = Math.max(largest, version <= highest ? highest - version + 1 : 0);
                highest = Math.max(highest, version);
            }
        }
        return largest;
    }

    private static long versionOf(String value) {
        return Long.parseLong(value.replaceAll(".*\"stateVersion\":(\\d+).*", "$1"));
    }

    /**
     * The schd topic read to its end and compacted (last value per key, tombstones removing keys) is FLIGHT_SCHD:
     * the active flights and no other, each at its current version with the reference run's projection.
     */
    private static void assertSchdTopicIsFlightSchd(StoreContents actual, StoreContents expected, TopicContents schd) {
        var compacted = schd.compacted();
        var active = actual.states().entrySet().stream().filter(e -> e.getValue().equals("ACTIVE"))
                .map(Map.Entry::getKey).collect(Collectors.toSet());
        assertThat(compacted.keySet()).as("keys left on the compacted schd topic: the active flights")
                .isEqualTo(active);
        compacted.forEach((flid, value) -> {
            assertThat(StoreContents.withoutRunTime(value)).as("schd value of %s", flid)
                    .isEqualTo(expected.projections().get(flid))
                    .contains("\"stateVersion\":" + actual.versions().get(flid) + ",");
        });
        schd.perKey().forEach((flid, values) -> {
            long previous = 0;
            for (var value : values) {
                if (value != null) {
                    long version = versionOf(value);
                    assertThat(version).as("schd versions of %s never go back", flid).isGreaterThanOrEqualTo(previous);
                    previous = version;
                }
            }
        });
    }

    private void assertEveryRowMarkedInMailbox(int total) throws Exception {
        try (var connection = run.aodbConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select count(*), count(CMINMSGS_DATE_PROCESSED) from CMINMSGS")) {
            rows.next();
            assertThat(rows.getLong(1)).isEqualTo(total);
            assertThat(rows.getLong(2)).as("mailbox rows marked processed").isEqualTo(total);
        }
        assertThat(run.countInPostgres("select count(*) from proc_state where backfill_abandoned_at is not null"))
                .as("abandoned marks").isZero();
    }

    private static String withoutEventId(String notification) {
        return notification.replaceFirst("^\\{\"eventId\":\\d+,", "{");
    }

    private static List<String> differences(Map<Long, String> actual, Map<Long, String> expected) {
        var lines = new ArrayList<String>();
        var ids = new java.util.TreeSet<>(actual.keySet());
        ids.addAll(expected.keySet());
        for (var id : ids) {
            if (!java.util.Objects.equals(actual.get(id), expected.get(id))) {
                lines.add(id + ": " + actual.get(id) + " here, " + expected.get(id) + " in the reference run");
            }
        }
        return lines;
    }

    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
    }
}
