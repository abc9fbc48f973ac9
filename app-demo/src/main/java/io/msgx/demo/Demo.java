package io.msgx.demo;

import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import io.msgx.tools.simulator.AirportDaySimulator;
import io.msgx.tools.simulator.MailboxFeeder;
import io.msgx.tools.simulator.SimulationSettings;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * {@code mvn -q install -DskipTests && mvn -q -pl app-demo exec:java}: a simulated airport day through the whole
 * pipeline on embedded parts, with a live status line and a summary. Options as system properties:
 * {@code -Ddemo.flights=300 -Ddemo.seed=42}.
 */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        int flights = Integer.getInteger("demo.flights", 300);
        long seed = Long.getLong("demo.seed", 42L);
        System.out.println("Starting embedded PostgreSQL, MariaDB (the mailbox) and Kafka ...");
        boolean drained;
        try (var parts = EmbeddedParts.start()) {
            KafkaTestBroker.createTopics(3, KafkaSinkSettings.DEFAULT_MSG_TOPIC);
            KafkaTestBroker.createCompactedTopics(3, KafkaSinkSettings.DEFAULT_SCHD_TOPIC,
                    KafkaSinkSettings.DEFAULT_REFERENCE_TOPIC);
            try (var exchange = MsgExchange.builder().config(Map.of(
                    "msgx.store.url", parts.storeUrl(),
                    "msgx.store.user", "postgres",
                    "msgx.mailbox.url", parts.mailboxUrl,
                    "msgx.mailbox.user", "root",
                    "msgx.kafka.bootstrap-servers", parts.kafkaBootstrap(),
                    "msgx.pipeline.poll-interval", "200ms",
                    "msgx.jobs.standby-poll", "200ms",
                    "msgx.jobs.backfill-interval", "1s")).build()) {
                exchange.migrate();
                exchange.start();

                var day = new AirportDaySimulator().generate(SimulationSettings.of(seed, flights, LocalDate.now(ZoneId.of("Asia/Shanghai"))));
                System.out.printf("Feeding a simulated airport day: %d flights, %d messages (seed %d)%n", flights,
                        day.messages().size(), seed);
                var feed = new MailboxFeeder(exchange.mailbox(), ZoneId.of("Asia/Shanghai")).open(day);
                var started = Instant.now();
                while (true) {
                    if (feed.remaining() > 0) {
                        feed.feedNext(200);
                    }
                    Thread.sleep(1000);
                    var status = exchange.status();
                    printLive(status, feed.remaining(), Duration.between(started, Instant.now()));
                    if (feed.remaining() == 0 && status.backlog() == 0 && status.pendingEvents() == 0
                            && status.owedBackfills() == 0 && status.watermark() > 0) {
                        break;
                    }
                    if (Duration.between(started, Instant.now()).toMinutes() >= 10) {
                        System.out.println("\nStopping after 10 minutes; the summary shows where things stand.");
                        break;
                    }
                }
                drained = summary(exchange);
            }
        }
        System.out.println(drained ? "Demo complete: every message ended and every event reached Kafka."
                : "Demo incomplete: see the summary above.");
        // The in-process Kafka broker keeps non-daemon threads; its shutdown hook stops it cleanly.
        System.exit(drained ? 0 : 1);
    }

    private static void printLive(PipelineStatus status, int toFeed, Duration elapsed) {
        System.out.printf("\r[%3ds] to feed %5d | watermark %6d | open %5d (oldest %3ds) | dead %3d | events pending %5d | marks owed %5d   ",
                elapsed.toSeconds(), toFeed, status.watermark(), status.backlog(), status.oldestUnprocessedSeconds(),
                status.dead(), status.pendingEvents(), status.owedBackfills());
        System.out.flush();
    }

    /** Prints the summary; true when nothing is left open or undelivered. */
    private static boolean summary(MsgExchange exchange) {
        System.out.println();
        System.out.println();
        System.out.println("=== Summary ===");
        var status = exchange.status();
        System.out.printf("messages: watermark %d, open %d, dead %d%n", status.watermark(), status.backlog(), status.dead());
        var store = exchange.store();
        var backlog = store.messageQueries().backlog();
        System.out.printf("by final state: SUCCEEDED %d, SKIPPED %d, DEAD %d, FAILED %d, PENDING %d%n",
                backlog.succeeded(), backlog.skipped(), backlog.dead(), backlog.failed(), backlog.pending());
        System.out.printf("events: %d pending, %d dead (the rest delivered to Kafka)%n", status.pendingEvents(), status.deadEvents());
        var schd = KafkaTestBroker.readAll(KafkaSinkSettings.DEFAULT_SCHD_TOPIC);
        var msg = KafkaTestBroker.readAll(KafkaSinkSettings.DEFAULT_MSG_TOPIC);
        var reference = KafkaTestBroker.readAll(KafkaSinkSettings.DEFAULT_REFERENCE_TOPIC);
        System.out.printf("kafka: %d records on %s, %d on %s, %d on %s%n", schd.size(), KafkaSinkSettings.DEFAULT_SCHD_TOPIC,
                msg.size(), KafkaSinkSettings.DEFAULT_MSG_TOPIC, reference.size(), KafkaSinkSettings.DEFAULT_REFERENCE_TOPIC);
        var references = store.referenceData().countsByType();
        System.out.printf("reference data (REF_MASTER): %d records: %s%n",
                references.values().stream().mapToLong(Long::longValue).sum(), references);
        var sample = schd.stream().filter(r -> r.value() != null && r.value().contains("\"mafl\":[{")).reduce((a, b) -> b)
                .or(() -> schd.stream().filter(r -> r.value() != null).reduce((a, b) -> b));
        sample.ifPresent(record -> {
            var json = store.inTransaction(tx -> {
                var flid = FlightId.of(record.key());
                var flight = tx.flights().find(List.of(flid)).get(0);
                var mafl = flight.isActive() && flight.carriesMafl()
                        ? MaflProjection.of(flid, tx.flights().findChildrenOf(List.of(flid))) : null;
                return new FlightEventJson(exchange.config().engine().operationDayRule().airportZone())
                        .state(flight, mafl, null, exchange.clock().instant());
            });
            System.out.println("a sample flight (" + record.key() + "), as FLIGHT_SCHD holds it now, in the schd shape (docs/consumers.md):");
            System.out.println(json);
        });
        return status.backlog() == 0 && status.pendingEvents() == 0 && status.watermark() > 0;
    }
}
