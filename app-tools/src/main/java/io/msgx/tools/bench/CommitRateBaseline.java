package io.msgx.tools.bench;

import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The bare commit rate of our PostgreSQL as one client sees it: one connection, a small table made for the
 * purpose, one small {@code INSERT} per transaction, committed each time, for a fixed time. This is the ceiling of
 * anything that commits once per message on one connection (a durable commit waits for the WAL flush).
 */
final class CommitRateBaseline {

    private static final String TABLE = "bench_commit_baseline";

    private final DataSource store;
    private final String schema;

    CommitRateBaseline(DataSource store, String schema) {
        this.store = store;
        this.schema = schema;
    }

    record Result(long commits, long nanos, String synchronousCommit) {
        double commitsPerSecond() {
            return nanos == 0 ? 0 : commits / (nanos / 1e9);
        }
    }

    Result measure(Duration duration) throws SQLException {
        var table = '"' + schema + "\"." + TABLE;
        try (var connection = store.getConnection()) {
            connection.setAutoCommit(true);
            String synchronousCommit;
            try (var statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + table);
                statement.execute("CREATE TABLE " + table + " (id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL, "
                        + "note VARCHAR(64) NOT NULL)");
                try (var rows = statement.executeQuery("SHOW synchronous_commit")) {
                    rows.next();
                    synchronousCommit = rows.getString(1);
                }
            }
            connection.setAutoCommit(false);
            long commits = 0;
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            long now = start;
            try (var insert = connection.prepareStatement("INSERT INTO " + table + " (at, note) VALUES (now(), ?)")) {
                while (now < end) {
                    insert.setString(1, "commit " + commits);
                    insert.executeUpdate();
                    connection.commit();
                    commits++;
                    now = System.nanoTime();
                }
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
                try (var statement = connection.createStatement()) {
                    statement.execute("DROP TABLE IF EXISTS " + table);
                }
            }
            return new Result(commits, now - start, synchronousCommit);
        }
    }
}
