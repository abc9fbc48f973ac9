package io.msgx.runner.selftest;

import io.msgx.adapter.oracle.OracleScratchSchema;
import io.msgx.adapter.oracle.OracleSelfTests;
import io.msgx.adapter.oracle.SelfTestRun;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.JdbcUrlMask;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.store.ConnectionPools;
import io.msgx.runner.store.OracleStoreBackend;
import io.msgx.runner.store.ReconnectingPool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The Oracle self-test (issue 24, D-88): this build's store contract suites, run against a scratch schema on the
 * store's own Oracle, every check reported, the run recorded in the store's {@code SELF_TEST} table. A runner warns at
 * start-up until a run of its build has passed there ({@link OracleStoreBackend#caution}).
 *
 * <p>The order of a run: find the suites (the distribution's {@code lib/oracle-selftest/}); check the store's schema is
 * current (the run is recorded there); make or adopt the scratch schema ({@link OracleScratchSchema}); run the suites
 * in a JVM of their own ({@link SuiteLauncher}); drop the scratch schema, whatever happened; record the run; write the
 * report. On an H2 store ({@code jdbc:h2:}, the tests' stand-in) there is no scratch schema: each check gets a new
 * in-memory H2, as in the build.
 */
public final class OracleSelfTest {

    /** A logon given on the command line: a user and its password. */
    public record Logon(String user, String password) {
        public Logon {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Logon[user=" + user + ", password=****]";
        }
    }

    /**
     * What to run with.
     *
     * @param admin      an administrator who creates and drops the scratch user (or null)
     * @param scratch    an empty user a DBA made for the run (or null); one of the two on a real Oracle
     * @param tablespace the scratch user's tablespace; null: the store user's default
     * @param ranBy      who runs it, kept with the run
     * @param suitesDir  where the suites are; null: beside the runner's jar
     * @param workDir    where the reports and the suites' output go
     * @param timeout    how long the suites may run
     */
    public record Request(Logon admin, Logon scratch, String tablespace, String ranBy, Path suitesDir, Path workDir,
                          Duration timeout) {
        public Request {
            Objects.requireNonNull(ranBy, "ranBy");
            Objects.requireNonNull(workDir, "workDir");
            Objects.requireNonNull(timeout, "timeout");
            if (admin != null && scratch != null) {
                throw new IllegalArgumentException("give an administrator (who creates a scratch user) or a scratch user,"
                        + " not both");
            }
        }
    }

    /**
     * A finished run: what was recorded (as {@code runId}), every check, where the report was written, and what the
     * run could not clean up (a scratch user left for a DBA to drop), if anything.
     */
    public record Result(SelfTestRun run, long runId, SuiteReport report, Path reportFile,
                         java.util.Optional<String> leftBehind) {
    }

    private OracleSelfTest() {
    }

    /**
     * Run the self-test for the store of {@code config}; {@code progress} hears each step.
     *
     * @throws IllegalArgumentException when the store is not Oracle's, or a real Oracle is given neither an
     *                                  administrator nor a scratch user
     * @throws IllegalStateException    when the suites are missing, the store's schema is not current, or the suites
     *                                  could not run
     */
    public static Result run(RunnerConfig config, Request request, Clock clock, Consumer<String> progress) {
        if (config.store().kind() != RunnerConfig.StoreKind.ORACLE) {
            throw new IllegalArgumentException("msgx.store.kind is "
                    + config.store().kind().name().toLowerCase(java.util.Locale.ROOT)
                    + ": the Oracle self-test runs against an Oracle store (msgx.store.kind=oracle)");
        }
        var launcher = SuiteLauncher.installed(request.suitesDir());
        try (var backend = new OracleStoreBackend(config.store(), config.lease(), clock)) {
            backend.requireCurrent();
            var standIn = backend.isStandIn();
            if (!standIn && request.admin() == null && request.scratch() == null) {
                throw new IllegalArgumentException("name an administrator who may create and drop a user "
                        + "(--admin-user), or an empty user a DBA made for the self-test (--scratch-user)");
            }
            var database = standIn ? "H2 in MODE=Oracle (the build's stand-in, not Oracle)" : backend.databaseProduct();
            progress.accept("Database: " + database + " at " + JdbcUrlMask.mask(config.store().url()));

            var started = clock.instant();
            String target;
            SuiteReport report;
            String leftBehind = null;
            if (standIn) {
                target = "H2 stand-in: a new in-memory database per check";
                progress.accept("Running the suites (" + target + ")...");
                report = launcher.run(Map.of(), request.workDir(), request.timeout());
            } else {
                var scratch = Scratch.open(config.store(), request, backend, clock);
                try {
                    target = scratch.schema().describe();
                    progress.accept("Scratch schema: " + target);
                    progress.accept("Running the suites...");
                    report = launcher.run(Map.of(
                            "MSGX_TEST_ORACLE_URL", JdbcUrlMask.withoutOracleLogon(config.store().url()),
                            "MSGX_TEST_ORACLE_USER", scratch.schema().user(),
                            "MSGX_TEST_ORACLE_PASSWORD", scratch.schema().password()), request.workDir(),
                            request.timeout());
                } finally {
                    leftBehind = scratch.close();
                }
            }
            var finished = clock.instant();
            var build = BuildInfo.current();
            var text = reportText(build, database, target, report, Duration.between(started, finished));
            var run = new SelfTestRun(build.version(), build.commit(), database, target, started, finished,
                    (int) report.count(CheckResult.Outcome.PASSED), (int) report.count(CheckResult.Outcome.FAILED),
                    (int) report.count(CheckResult.Outcome.SKIPPED), request.ranBy(), text);
            long id = OracleSelfTests.on(backend.dataSource()).record(run);
            var reportFile = request.workDir().resolve("report.txt");
            write(reportFile, text);
            return new Result(run, id, report, reportFile, java.util.Optional.ofNullable(leftBehind));
        }
    }

    /** The scratch schema and the pool it is managed through (the administrator's or its own), closed together. */
    private record Scratch(OracleScratchSchema schema, ReconnectingPool pool) {

        static Scratch open(RunnerConfig.Store store, Request request, OracleStoreBackend backend, Clock clock) {
            var logon = request.admin() != null ? request.admin() : request.scratch();
            var pool = ConnectionPools.open(request.admin() != null ? "msgx-selftest-admin" : "msgx-selftest-scratch",
                    JdbcUrlMask.withoutOracleLogon(store.url()), logon.user(), logon.password(), 1, hikari -> { });
            try {
                if (request.admin() != null) {
                    var tablespace = request.tablespace() != null ? request.tablespace()
                            : OracleScratchSchema.defaultTablespaceOf(backend.dataSource());
                    return new Scratch(OracleScratchSchema.create(pool, tablespace, clock.instant()), pool);
                }
                return new Scratch(OracleScratchSchema.adopt(pool, logon.user(), logon.password()), pool);
            } catch (RuntimeException e) {
                pool.close();
                throw e;
            }
        }

        /** Drop the scratch schema; answers what was left behind, or null when nothing was. */
        String close() {
            try {
                schema.close();
                return null;
            } catch (RuntimeException e) {
                return e.getMessage();
            } finally {
                pool.close();
            }
        }
    }

    /** The report: the run's facts, then every check by suite. */
    static String reportText(BuildInfo build, String database, String target, SuiteReport report, Duration took) {
        var lines = new ArrayList<String>();
        lines.add("Oracle self-test of msgexchange " + build.describe());
        lines.add("Database: " + database);
        lines.add("Checks ran in: " + target);
        lines.add("Checks: " + report.counts() + " in " + took.toSeconds() + " s");
        lines.add("Outcome: " + (report.passed() ? "PASSED" : "FAILED"));
        lines.add("");
        lines.addAll(report.lines());
        return String.join("\n", lines) + "\n";
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the self-test's report to " + file, e);
        }
    }
}
