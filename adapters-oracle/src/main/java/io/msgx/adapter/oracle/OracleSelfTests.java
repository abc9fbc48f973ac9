package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.StoreJdbc;

import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The runs of the Oracle self-test recorded in the store's schema ({@code SELF_TEST}, script V8; D-88), and the
 * warning a runner gives at start-up while its own build has no passing run there.
 *
 * <p>Not a port of pipeline-core: the self-test is about this adapter on a site's Oracle, and only the runner's
 * {@code oracle-selftest} command and its start-up read or write it.
 */
public final class OracleSelfTests {

    private static final String COLUMNS = "BUILD_VERSION, BUILD_COMMIT, DATABASE_NAME, TARGET, STARTED_AT, FINISHED_AT,"
            + " CHECKS_PASSED, CHECKS_FAILED, CHECKS_SKIPPED, RAN_BY, REPORT";

    private final StoreJdbc sql;

    private OracleSelfTests(StoreJdbc sql) {
        this.sql = sql;
    }

    /** The runs recorded in the schema of {@code dataSource} (migrated to version 8 or later). */
    public static OracleSelfTests on(DataSource dataSource) {
        return new OracleSelfTests(StoreJdbc.autoCommit(OracleDialect.ORACLE, dataSource));
    }

    /** Record {@code run}; answers its {@code RUN_ID}. */
    public long record(SelfTestRun run) {
        return sql.run("recording the Oracle self-test of " + run.build(), session -> {
            long id = session.nextValue("SELF_TEST_SEQ");
            session.update("INSERT INTO SELF_TEST (RUN_ID, " + COLUMNS + ", OUTCOME)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    id, sql.fitted(run.buildVersion(), 64), sql.fitted(run.buildCommit(), 64),
                    sql.fitted(run.database(), 400), sql.fitted(run.target(), 200), run.startedAt(), run.finishedAt(),
                    run.checksPassed(), run.checksFailed(), run.checksSkipped(), sql.fitted(run.ranBy(), 64),
                    new StoreJdbc.LongText(run.report()), run.passed() ? "PASSED" : "FAILED");
            return id;
        });
    }

    /** The latest run, whatever its build and outcome. */
    public Optional<SelfTestRun> latest() {
        return sql.run("reading the latest Oracle self-test", session -> session.one(sql.firstRows(
                "SELECT " + COLUMNS + " FROM SELF_TEST ORDER BY RUN_ID DESC"), OracleSelfTests::run, 1));
    }

    /** The latest run that passed, whatever its build. */
    public Optional<SelfTestRun> latestPassed() {
        return sql.run("reading the latest passing Oracle self-test", session -> session.one(sql.firstRows(
                "SELECT " + COLUMNS + " FROM SELF_TEST WHERE OUTCOME = 'PASSED' ORDER BY RUN_ID DESC"),
                OracleSelfTests::run, 1));
    }

    /**
     * What a runner of build {@code version}/{@code commit} says at start-up on a real Oracle store, given the store's
     * latest passing run: nothing when that run is of this build, else why the store is not yet vouched for and the
     * command that does it.
     */
    public static Optional<String> startupWarning(Optional<SelfTestRun> latestPassed, String version, String commit) {
        if (latestPassed.isPresent() && latestPassed.get().isOf(version, commit)) {
            return Optional.empty();
        }
        var why = latestPassed.map(run -> "the Oracle self-test last passed here for build " + run.build() + " ("
                        + run.finishedAt() + "), not for this build " + SelfTestRun.build(version, commit))
                .orElse("the Oracle self-test has never passed against this store's database");
        return Optional.of(why + ": this build's store is verified on H2 only until it does. Run 'msgexchange "
                + "oracle-selftest --config <file>' (docs/operations.md, \"Oracle self-test\")");
    }

    private static SelfTestRun run(StoreJdbc.Row row) throws SQLException {
        return new SelfTestRun(row.text("BUILD_VERSION"), row.text("BUILD_COMMIT"), row.text("DATABASE_NAME"),
                row.text("TARGET"), row.instant("STARTED_AT"), row.instant("FINISHED_AT"), row.intValue("CHECKS_PASSED"),
                row.intValue("CHECKS_FAILED"), row.intValue("CHECKS_SKIPPED"), row.text("RAN_BY"), row.text("REPORT"));
    }
}
