package io.msgx.adapter.oracle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code SELF_TEST} (D-88): the runs of the Oracle self-test are kept with their whole report, the latest passing run
 * is found whatever came after it, and a runner warns at start-up until a run of its own build has passed.
 */
class OracleSelfTestsTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    private static final Instant STARTED = Instant.parse("2026-12-02T10:15:30.123456Z");

    @Test
    void aRunIsKeptWithItsCountsItsTimesAndItsWholeReport() {
        var tests = OracleSelfTests.on(database.dataSource());
        var report = "PASSED OracleOutboxTest > a check\n".repeat(400); // beyond any VARCHAR2: a CLOB

        tests.record(run("0.1.0", "1a2b3c4", 328, 0, 3, report));

        assertThat(tests.latest()).hasValueSatisfying(latest -> {
            assertThat(latest).isEqualTo(run("0.1.0", "1a2b3c4", 328, 0, 3, report));
            assertThat(latest.passed()).isTrue();
            assertThat(latest.build()).isEqualTo("0.1.0 (commit 1a2b3c4)");
        });
    }

    @Test
    void theLatestPassingRunIsFoundBehindALaterFailure() {
        var tests = OracleSelfTests.on(database.dataSource());
        assertThat(tests.latestPassed()).isEmpty();

        tests.record(run("0.1.0", "aaaaaaa", 320, 0, 0, "first"));
        tests.record(run("0.1.0", "bbbbbbb", 300, 20, 0, "second, failing"));

        assertThat(tests.latest()).hasValueSatisfying(latest -> assertThat(latest.passed()).isFalse());
        assertThat(tests.latestPassed()).hasValueSatisfying(pass -> assertThat(pass.buildCommit()).isEqualTo("aaaaaaa"));
    }

    @Test
    void aRunWithoutAnyPassingCheckIsNoPassEvenWithoutFailures() {
        var allSkipped = run("0.1.0", "aaaaaaa", 0, 0, 12, "all skipped");

        assertThat(allSkipped.passed()).isFalse();
        OracleSelfTests.on(database.dataSource()).record(allSkipped);
        assertThat(OracleSelfTests.on(database.dataSource()).latestPassed()).isEmpty();
    }

    @Test
    void startUpWarnsUntilARunOfItsOwnBuildHasPassed() {
        assertThat(OracleSelfTests.startupWarning(Optional.empty(), "0.2.0", "ccccccc"))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains("has never passed against this store's database")
                        .contains("msgexchange oracle-selftest --config"));

        var older = run("0.1.0", "aaaaaaa", 328, 0, 0, "older build");
        assertThat(OracleSelfTests.startupWarning(Optional.of(older), "0.2.0", "ccccccc"))
                .hasValueSatisfying(warning -> assertThat(warning)
                        .contains("last passed here for build 0.1.0 (commit aaaaaaa)")
                        .contains("not for this build 0.2.0 (commit ccccccc)"));

        var same = run("0.2.0", "ccccccc", 328, 0, 0, "this build");
        assertThat(OracleSelfTests.startupWarning(Optional.of(same), "0.2.0", "ccccccc")).isEmpty();
    }

    private static SelfTestRun run(String version, String commit, int passed, int failed, int skipped, String report) {
        return new SelfTestRun(version, commit, "Oracle Database 11g Express Edition Release 11.2.0.2.0 - 64bit",
                "MSGX_ST_20261202101530", STARTED, STARTED.plusSeconds(95), passed, failed, skipped, "ops", report);
    }
}
