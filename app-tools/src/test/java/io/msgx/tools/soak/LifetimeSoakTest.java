package io.msgx.tools.soak;

import io.msgx.runner.RealServices;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lifetime soak (issue 33): the runner, as {@code run} wires it, on the real PostgreSQL, MariaDB and an in-process
 * Kafka broker, driven by a fast clock through many operation days ({@link LifetimeSoak}). Every day must end with
 * nothing lost and the topics telling the truth ({@link DayCheck}); every table of the store must reach a plateau set
 * by the retention keys; the report (days, rows, digest time per message, heap) is written to
 * {@code target/soak-report.md}.
 *
 * <p>The short form here runs 30 days; the long form ({@code scripts/reliability.sh soak}) runs
 * {@code -Dmsgx.soak.days=365} or as many as {@code -Dmsgx.soak.minutes=20} of real time hold.
 */
@Slow
class LifetimeSoakTest {

    private static final int DAYS = Integer.getInteger("msgx.soak.days", 30);
    private static final int FLIGHTS = Integer.getInteger("msgx.soak.flights", 12);
    private static final Duration STEP = Duration.ofMinutes(Integer.getInteger("msgx.soak.step-minutes", 30));
    private static final Duration BUDGET = Duration.ofMinutes(Integer.getInteger("msgx.soak.minutes", 20));

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void a_lifetime_of_operation_days_loses_nothing_keeps_versions_going_up_and_every_table_plateaus() throws Exception {
        var keys = new LinkedHashMap<>(services.runnerKeysWithKafka());
        keys.putAll(RealServices.freshTopics("soak"));
        keys.putAll(LifetimeSoak.lifetimeKeys());
        var settings = new LifetimeSoak.Settings(DAYS, FLIGHTS, STEP, BUDGET, LocalDate.of(2025, 1, 1), 7);
        var soak = new LifetimeSoak(settings, keys, services.mailbox(), services.storeDataSource(),
                services::aodbConnection);

        var days = soak.run(day -> System.out.println(SoakReport.line(day)));

        var report = new SoakReport(settings, days);
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "soak-report.md"), report.markdown());
        System.out.println(report.markdown());
        assertThat(days).as("every day checked").hasSizeGreaterThanOrEqualTo(Math.min(DAYS, 21));
        assertThat(days).allSatisfy(day -> assertThat(day.problems()).as("day %s (%s)", day.index(), day.date())
                .isEmpty());
        assertThat(days.stream().mapToInt(LifetimeSoak.Day::fed).sum()).as("traffic fed").isPositive();
        assertThat(report.unbounded()).as("tables still growing after %s days", days.size()).isEmpty();
    }
}
