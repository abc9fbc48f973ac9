package io.msgx.example.consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.testing.Slow;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The consumer example on the real pipeline (MariaDB mailbox → msgexchange → PostgreSQL → the in-process broker): the
 * board it builds from {@code schd} and keeps by following {@code msg} and {@code schd} equals the flights in the store,
 * and a burst of repeats, as a crash of the pipeline sends them, changes nothing and applies no notification twice.
 */
@Slow
class ConsumerExampleEndToEndTest {

    private static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    private final ObjectMapper json = new ObjectMapper();
    private String msgTopic;
    private String schdTopic;

    @Test
    void the_board_equals_the_store_after_the_bootstrap_while_following_and_after_a_burst_of_repeats() throws Exception {
        var keys = keysWithFreshTopics(2);
        var morning = deliverTheMorning();
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.migrate();
            exchange.start();
            awaitDelivered(morning);

            var msgAtStart = PublishedRecords.endOffsets(msgTopic);
            try (var follower = follower()) {
                // (1) Bootstrap: schd from the beginning to its end.
                assertThat(follower.bootstrap(Duration.ofSeconds(30))).isPositive();
                var board = follower.board();
                assertThat(board.versions()).as("FLID → stateVersion: the board and FLIGHT_SCHD's active flights")
                        .isEqualTo(storeVersions("ACTIVE"));
                assertThat(storeVersions("DELETED")).containsOnlyKeys("1005");
                assertThat(board.flights()).doesNotContainKey("1005");
                var master = board.flights().get("1001");
                assertThat(master.get("FLNO").asText()).isEqualTo("CA1405");
                assertThat(master.get("GTDT").get(0).get("GATE").asText()).isEqualTo("G33");
                assertThat(follower.changes().applied()).as("msg is followed from its end at the start").isZero();

                // (2) Follow: the afternoon is delivered in three bursts while the example polls.
                var applied = new ArrayList<FlightFollower.Applied>();
                for (var burst : deliverTheAfternoon()) {
                    awaitFollowing(follower, applied, () -> ended(burst) && undelivered() == 0);
                }
                awaitFollowing(follower, applied, follower::caughtUp);
                assertThat(board.versions()).as("FLID → stateVersion after following").isEqualTo(storeVersions("ACTIVE"));
                assertThat(storeVersions("DELETED")).containsOnlyKeys("1002", "1005");
                assertThat(board.flights()).doesNotContainKeys("1002", "1005").containsKey("3001");
                var sinceStart = PublishedRecords.readAll(msgTopic).stream()
                        .filter(r -> r.offset() >= msgAtStart.get(new TopicPartition(r.topic(), r.partition()))).toList();
                assertThat(notifications(applied)).as("every notification published since the start, applied once")
                        .containsExactlyInAnyOrderElementsOf(flidsAndVersions(sinceStart));
                var changes = follower.changes();
                assertThat(changes.applied()).isEqualTo(sinceStart.size()).isGreaterThanOrEqualTo(50);
                assertThat(changes.repeatsDropped()).isZero();
                assertThat(changes.gaps()).as("no notification missed").isZero();
                assertThat(changes.last("1002")).hasValueSatisfying(c -> assertThat(c.change()).isEqualTo("DELETE"));
                assertThat(changes.last("1001")).hasValueSatisfying(c -> assertThat(c.changed()).containsExactly("STND"));
                assertThat(board.flights().get("1001").get("STND").asText()).isEqualTo("621");

                // (3) A burst of repeats: the last 50 notifications and the tail of each schd partition, sent again.
                var before = new TreeMap<String, ObjectNode>();
                board.flights().forEach((flid, state) -> before.put(flid, state.deepCopy()));
                long repeatsBefore = changes.repeatsDropped();
                long appliedBefore = changes.applied();
                long statesDroppedBefore = board.dropped();
                int appliedLinesBefore = applied.size();
                var msgRepeats = sinceStart.stream().sorted(Comparator.comparingLong(this::eventId))
                        .skip(sinceStart.size() - 50L).toList();
                var schdRepeats = tails(PublishedRecords.readAll(schdTopic), 25);
                PublishedRecords.produceAgain(msgRepeats);
                PublishedRecords.produceAgain(schdRepeats);
                awaitFollowing(follower, applied, follower::caughtUp);

                assertThat(board.flights()).as("the board is unchanged by the repeats").isEqualTo(before);
                assertThat(changes.repeatsDropped() - repeatsBefore).as("every msg record copied was dropped")
                        .isEqualTo(msgRepeats.size());
                assertThat(changes.applied()).isEqualTo(appliedBefore);
                assertThat(board.dropped() - statesDroppedBefore).as("every schd record copied was dropped")
                        .isEqualTo(schdRepeats.size());
                assertThat(applied).as("nothing applied from the repeats").hasSize(appliedLinesBefore);
                assertThat(new HashSet<>(notifications(applied))).as("no notification applied twice")
                        .hasSize(notifications(applied).size());
                System.out.printf("%s: board of %d flights; %d notifications applied; %d msg and %d schd repeats "
                        + "dropped%n", getClass().getSimpleName(),
                        board.versions().size(), changes.applied(), msgRepeats.size(), schdRepeats.size());
            }
        }
    }

    /**
     * What only the contract's wire gives (docs/consumers.md, "Headers" and "msg"): a tombstone names the version
     * that deleted the flight, which the board keeps, so a late older state cannot bring the flight back; a
     * notification says its {@code cause}; every record carries its {@code ce_id}.
     */
    @Test
    void a_tombstone_names_its_deleting_version_and_a_notification_its_cause() throws Exception {
        var keys = keysWithFreshTopics(1);
        var plan = List.of(deliver(sis.schedule(fltr("4001", "11MAR240835", "FLNO", "CA1405", "STND", "504"),
                fltr("4002", "11MAR240900", "FLNO", "HU7181"))));
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.migrate();
            exchange.start();
            awaitDelivered(plan);
            try (var follower = follower()) {
                follower.bootstrap(Duration.ofSeconds(30));
                var later = List.of(deliver(sis.flop(FlopSubtype.STND, "4001", patch("STND", "612"))),
                        deliver(sis.fdel("4001")));
                var applied = new ArrayList<FlightFollower.Applied>();
                awaitFollowing(follower, applied, () -> ended(later) && undelivered() == 0);
                awaitFollowing(follower, applied, follower::caughtUp);

                var schd = PublishedRecords.readAll(schdTopic);
                var tombstone = schd.stream().filter(r -> r.value() == null).findFirst().orElseThrow();
                assertThat(tombstone.headers().lastHeader(FlightRecords.STATE_VERSION_HEADER)).isNotNull();
                assertThat(follower.board().versionOf("4001")).as("the deleting version is kept")
                        .hasValue(storeVersions("DELETED").get("4001"));
                assertThat(follower.changes().last("4001")).hasValueSatisfying(c -> {
                    assertThat(c.change()).isEqualTo("DELETE");
                    assertThat(c.cause()).isEqualTo("AODB");
                });
                var msg = PublishedRecords.readAll(msgTopic);
                msg.forEach(r -> assertThat(header(r, "ce_id")).isEqualTo("change:" + r.key() + ":" + versionOf(r)));
                schd.stream().filter(r -> r.value() != null).forEach(r -> assertThat(header(r, "ce_id"))
                        .isEqualTo("state:" + r.key() + ":" + versionOf(r)));
                assertThat(header(tombstone, "ce_id")).isEqualTo("state:4001:"
                        + header(tombstone, FlightRecords.STATE_VERSION_HEADER));

                long dropped = follower.board().dropped();
                var firstState = schd.stream().filter(r -> "4001".equals(r.key()) && r.value() != null).findFirst()
                        .orElseThrow();
                PublishedRecords.produceAgain(List.of(firstState));
                awaitFollowing(follower, applied, follower::caughtUp);
                assertThat(follower.board().flights()).as("a late older state does not bring 4001 back")
                        .doesNotContainKey("4001").containsKey("4002");
                assertThat(follower.board().dropped()).isEqualTo(dropped + 1);
            }
        }
    }

    /** Six flights planned, gates, times and stands changed, one deleted. */
    private List<Long> deliverTheMorning() throws SQLException {
        var ids = new ArrayList<Long>();
        ids.add(deliver(sis.schedule(
                fltr("1001", withList(patch("SODT", "11MAR240835", "FLNO", "CA1405", "STND", "504"),
                        FlightList.GTDT, item(1, "GATE", "G28"))),
                fltr("1002", withList(patch("SODT", "11MAR240850", "FLNO", "MU3001", "STND", "505"),
                        FlightList.GTDT, item(1, "GATE", "G29"))),
                fltr("1003", "11MAR240900", "FLNO", "HU7181", "STND", "506"),
                fltr("1004", "11MAR240915", "FLNO", "FM9001", "STND", "507"),
                fltr("1005", "11MAR240930", "FLNO", "ZH9001"),
                fltr("1006", "11MAR240945", "FLNO", "3U8888", "STND", "508"))));
        ids.add(deliver(sis.flop(FlopSubtype.GTDT, "1001", withList(patch(), FlightList.GTDT, item(1, "GATE", "G33")))));
        ids.add(deliver(sis.flop(FlopSubtype.GTDT, "1002", withList(patch(), FlightList.GTDT, item(1, "GATE", "G35")))));
        ids.add(deliver(sis.flop(FlopSubtype.EOBT, "1003", patch("EOBT", "11MAR240850"))));
        ids.add(deliver(sis.flop(FlopSubtype.STND, "1004", patch("STND", "601"))));
        ids.add(deliver(sis.fdel("1005")));
        ids.add(deliver(sis.flop(FlopSubtype.EOBT, "1006", patch("EOBT", "11MAR240935"))));
        return ids;
    }

    /**
     * Three bursts: twelve rounds of a gate, a time or a stand for five flights (60 notifications), a flight added, one
     * deleted. The last change of 1001 is its stand 621.
     */
    private List<List<Long>> deliverTheAfternoon() throws SQLException {
        var bursts = new ArrayList<List<Long>>();
        var burst = new ArrayList<Long>();
        for (int round = 0; round < 12; round++) {
            for (var flid : List.of("1001", "1002", "1003", "1004", "1006")) {
                burst.add(deliver(switch (round % 3) {
                    case 0 -> sis.flop(FlopSubtype.GTDT, flid, withList(patch(), FlightList.GTDT,
                            item(1, "GATE", "G" + (40 + round))));
                    case 1 -> sis.flop(FlopSubtype.EOBT, flid, patch("EOBT", String.format("11MAR2410%02d", round * 4)));
                    default -> sis.flop(FlopSubtype.STND, flid, patch("STND", Integer.toString(610 + round)));
                }));
            }
            if (round % 4 == 3) {
                bursts.add(burst);
                burst = new ArrayList<>();
            }
        }
        bursts.get(bursts.size() - 1).add(deliver(sis.adft(fltr("3001", "11MAR241500", "FLNO", "CZ3101"))));
        bursts.get(bursts.size() - 1).add(deliver(sis.fdel("1002")));
        return bursts;
    }

    private Map<String, String> keysWithFreshTopics(int partitions) {
        msgTopic = KafkaTestBroker.uniqueTopic("example-msg");
        schdTopic = KafkaTestBroker.uniqueTopic("example-schd");
        var referenceTopic = KafkaTestBroker.uniqueTopic("example-reference");
        KafkaTestBroker.createTopics(partitions, msgTopic);
        KafkaTestBroker.createCompactedTopics(partitions, schdTopic);
        KafkaTestBroker.createCompactedTopics(1, referenceTopic);
        var keys = new LinkedHashMap<>(services.runnerKeysWithKafka());
        keys.put(Keys.KAFKA_TOPIC_MSG, msgTopic);
        keys.put(Keys.KAFKA_TOPIC_SCHD, schdTopic);
        keys.put(Keys.KAFKA_TOPIC_REFERENCE, referenceTopic);
        return keys;
    }

    private FlightFollower follower() {
        return new FlightFollower(FlightFollower.consumerConfig(KafkaTestBroker.bootstrapServers()), msgTopic, schdTopic);
    }

    private long deliver(String xml) throws SQLException {
        try (var connection = services.aodbConnection()) {
            return TestMailboxDatabase.insertInbound(connection, xml);
        }
    }

    private void awaitDelivered(List<Long> ids) throws InterruptedException {
        BuiltRunner.await("the messages processed and their events sent", () -> ended(ids) && undelivered() == 0);
    }

    /** Polls the example until {@code done}, collecting what it applied. */
    private static void awaitFollowing(FlightFollower follower, List<FlightFollower.Applied> applied,
                                       java.util.function.BooleanSupplier done) throws InterruptedException {
        BuiltRunner.await("the example following", () -> {
            applied.addAll(follower.pollOnce(POLL));
            return done.getAsBoolean();
        });
    }

    private boolean ended(List<Long> ids) {
        try (var connection = services.storeDataSource().getConnection();
             var statement = connection.prepareStatement("select count(*) from proc_state where msg_id = any (?) and "
                     + "state in ('SUCCEEDED', 'SKIPPED', 'DEAD')")) {
            statement.setArray(1, connection.createArrayOf("bigint", ids.toArray()));
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1) == ids.size();
            }
        } catch (SQLException e) {
            return false;
        }
    }

    private long undelivered() {
        try (var connection = services.storeDataSource().getConnection();
             var rows = connection.createStatement().executeQuery(
                     "select count(*) from msg_event where status <> 'SENT'")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            return -1;
        }
    }

    /** FLID → STATE_VERSION of the flights in FLIGHT_SCHD in {@code state} ({@code ACTIVE} or {@code DELETED}). */
    private Map<String, Long> storeVersions(String state) throws SQLException {
        var versions = new TreeMap<String, Long>();
        try (var connection = services.storeDataSource().getConnection();
             var statement = connection.prepareStatement("select flid, state_version from flight_schd where state = ?")) {
            statement.setString(1, state);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return versions;
    }

    private List<String> notifications(List<FlightFollower.Applied> applied) {
        return applied.stream().filter(a -> a.topic().equals(msgTopic))
                .map(a -> a.flid() + ":" + a.stateVersion()).toList();
    }

    private List<String> flidsAndVersions(List<ConsumerRecord<String, String>> records) {
        return records.stream().map(r -> r.key() + ":" + versionOf(r)).toList();
    }

    private long versionOf(ConsumerRecord<String, String> record) {
        return field(record, "stateVersion");
    }

    private long eventId(ConsumerRecord<String, String> record) {
        return field(record, "eventId");
    }

    private long field(ConsumerRecord<String, String> record, String name) {
        try {
            return json.readTree(record.value()).get(name).asLong();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String header(ConsumerRecord<String, String> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The last {@code perPartition} records of each partition, in their order. */
    private static List<ConsumerRecord<String, String>> tails(List<ConsumerRecord<String, String>> records,
                                                              int perPartition) {
        var byPartition = new TreeMap<Integer, List<ConsumerRecord<String, String>>>();
        records.forEach(r -> byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r));
        var tails = new ArrayList<ConsumerRecord<String, String>>();
        byPartition.values().forEach(list -> tails.addAll(list.subList(Math.max(0, list.size() - perPartition),
                list.size())));
        return tails;
    }
}
