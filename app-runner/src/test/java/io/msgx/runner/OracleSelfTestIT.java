package io.msgx.runner;

import io.msgx.runner.build.BuildInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Oracle self-test as a site runs it (issue 24, point 9; D-88): from the unpacked distribution, the command runs
 * the store contract suites in a JVM of its own, prints every check, writes the report and records the run in the
 * store's {@code SELF_TEST}. Our machines have no Oracle, so the store here is H2 in Oracle mode (a file the test reads
 * afterwards) and the checks run on the stand-in; everything but the scratch user's SQL is the site's path.
 */
class OracleSelfTestIT {

    @TempDir
    static Path folder;

    private static Path home;
    private static Path config;

    @BeforeAll
    static void installAndMigrate() throws Exception {
        home = Distribution.unpack(folder);
        config = folder.resolve("selftest.properties");
        Files.writeString(config, String.join("\n",
                "msgx.store.kind=oracle",
                "msgx.store.url=" + storeUrl(),
                "msgx.store.user=sa",
                "msgx.mailbox.url=jdbc:mysql://127.0.0.1:3306/unused",
                "msgx.kafka.enabled=false", ""));
        var migrate = runner(List.of("migrate", "--config", config.toString()), Duration.ofSeconds(60));
        assertThat(migrate.exit()).as(migrate.output()).isZero();
    }

    @Test
    void theSuitesRunFromTheDistributionEveryCheckIsReportedAndThePassIsRecordedInTheStore() throws Exception {
        var work = folder.resolve("work");

        var result = runner(List.of("oracle-selftest", "--config", config.toString(), "--work-dir", work.toString(),
                "--operator", "it-ops"), Duration.ofMinutes(5));

        assertThat(result.exit()).as(result.output()).isZero();
        var output = result.output();
        assertThat(output).contains("Oracle self-test of msgexchange " + BuildInfo.current().version())
                .contains("Outcome: PASSED")
                .contains("Recorded as run 1 in SELF_TEST");
        // Every suite of the store's ports, each check on a line of its own with its outcome.
        for (var suite : List.of("OracleOutboxTest", "OracleProcStatesTest", "OracleFlightStoreTest",
                "OracleRequestTrackTest", "OracleReferenceDataTest", "OracleReplayTest", "OracleEpochLeaseTest",
                "OracleSchemaTest", "OracleTimeZoneTest", "OracleStoreUnavailableTest")) {
            assertThat(output).as(suite).containsPattern("(?m)^" + suite + " \\(\\d+ checks\\)$");
        }
        assertThat(output).containsPattern("(?m)^  PASSED  aReplayedRowQueuesAgainAtItsOwnPlace\\(\\)$");
        assertThat(output).as("a skip says why").containsPattern(
                "(?m)^  SKIPPED theBuildKnowsEveryScriptOfItsFolderInOrder\\(\\) — reads the scripts' folder");
        assertThat(output).as("the Docker smoke test is not one of the checks").doesNotContain("OracleXeContainerTest");
        long checks = output.lines().filter(line -> line.matches("  (PASSED|FAILED|SKIPPED) .*")).count();
        assertThat(checks).isGreaterThan(300);
        assertThat(work.resolve("report.txt")).content().contains("Outcome: PASSED");

        try (var store = DriverManager.getConnection(storeUrl(), "sa", "");
             var rows = store.createStatement().executeQuery("SELECT BUILD_VERSION, OUTCOME, CHECKS_PASSED,"
                     + " CHECKS_FAILED, RAN_BY, REPORT FROM SELF_TEST")) {
            assertThat(rows.next()).as("one run recorded").isTrue();
            assertThat(rows.getString("BUILD_VERSION")).isEqualTo(BuildInfo.current().version());
            assertThat(rows.getString("OUTCOME")).isEqualTo("PASSED");
            assertThat(rows.getLong("CHECKS_PASSED")).isEqualTo(output.lines()
                    .filter(line -> line.startsWith("  PASSED ")).count());
            assertThat(rows.getLong("CHECKS_FAILED")).isZero();
            assertThat(rows.getString("RAN_BY")).isEqualTo("it-ops");
            assertThat(rows.getString("REPORT")).contains("aReplayedRowQueuesAgainAtItsOwnPlace()");
            assertThat(rows.next()).isFalse();
        }
    }

    @Test
    void withoutItsSuitesTheCommandSaysWhereTheyShouldBeAndRecordsNothing() throws Exception {
        var empty = Files.createDirectories(folder.resolve("no-suites"));

        var result = runner(List.of("oracle-selftest", "--config", config.toString(), "--suites", empty.toString()),
                Duration.ofSeconds(60));

        assertThat(result.exit()).as(result.output()).isEqualTo(1);
        assertThat(result.output()).contains("the Oracle self-test's suites are not in " + empty);
    }

    @Test
    void aPostgresqlStoreIsRefusedAsBadUsage() throws Exception {
        var pg = folder.resolve("pg.properties");
        Files.writeString(pg, String.join("\n", "msgx.store.url=jdbc:postgresql://127.0.0.1:5432/unused",
                "msgx.mailbox.url=jdbc:mysql://127.0.0.1:3306/unused", "msgx.kafka.enabled=false", ""));

        var result = runner(List.of("oracle-selftest", "--config", pg.toString()), Duration.ofSeconds(60));

        assertThat(result.exit()).as(result.output()).isEqualTo(2);
        assertThat(result.output()).contains("runs against an Oracle store (msgx.store.kind=oracle)");
    }

    /** The store: an H2 file in Oracle mode, so this test can read what the runner's process recorded. */
    private static String storeUrl() {
        return "jdbc:h2:file:" + folder.resolve("store") + ";MODE=Oracle";
    }

    /**
     * The installed runner's jar with H2's driver beside it (the distribution's launcher runs {@code -jar}, which takes
     * no class path, and the production jar holds no H2).
     */
    private static Distribution.Result runner(List<String> arguments, Duration limit) throws Exception {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", home.resolve("lib/msgexchange.jar") + ":" + home.resolve("lib/oracle-selftest/h2.jar"),
                "io.msgx.runner.cli.Main"));
        command.addAll(arguments);
        return Distribution.run(command, Map.of(), limit);
    }
}
