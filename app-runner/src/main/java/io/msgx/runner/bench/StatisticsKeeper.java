package io.msgx.runner.bench;

import io.msgx.adapter.pg.PgSchema;

import javax.sql.DataSource;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stands in for autovacuum's {@code ANALYZE} when the PostgreSQL under the bench runs with {@code autovacuum = off}
 * (as the build machines' does: {@code conf.d/90-ci.conf}). Without it the planner never learns that the store's
 * tables grew from empty to tens of thousands of rows, and plans every look-up as if they were empty — the digest
 * then measures the missing statistics, not the pipeline (at 50,000 messages it fell from ~700 to 250 msg/s). A
 * production PostgreSQL analyzes these tables itself; this keeps the bench's tables as fresh as that would: every
 * {@link #PERIOD_MILLIS}, on a daemon thread, it runs {@code ANALYZE} on each table of the store schema of which
 * more than 50 rows + 10 % changed since its last analysis (autovacuum's default rule). It does nothing when
 * autovacuum is on.
 */
final class StatisticsKeeper implements AutoCloseable {

    static final long PERIOD_MILLIS = 10_000;

    private final DataSource store;
    private final String schema;
    private final Thread analyzer;
    private final AtomicLong rounds = new AtomicLong();
    private volatile boolean stopped;

    private StatisticsKeeper(DataSource store, String schema, boolean active) {
        this.store = store;
        this.schema = schema;
        if (active) {
            analyzer = new Thread(this::run, "msgx-bench-analyze");
            analyzer.setDaemon(true);
            analyzer.start();
        } else {
            analyzer = null;
        }
    }

    /** Starts analyzing when the server's autovacuum is off; otherwise a keeper that does nothing. */
    static StatisticsKeeper forStore(DataSource store, String schema) {
        return new StatisticsKeeper(store, schema, !PgSchema.autovacuumOn(store));
    }

    /** Whether this keeper runs {@code ANALYZE} (autovacuum is off). */
    boolean active() {
        return analyzer != null;
    }

    long rounds() {
        return rounds.get();
    }

    private void run() {
        while (!stopped) {
            try {
                Thread.sleep(PERIOD_MILLIS);
                analyzeAll();
                rounds.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            } catch (SQLException e) {
                // The schema is being dropped and re-migrated between digests: try again next period.
            }
        }
    }

    private void analyzeAll() throws SQLException {
        try (var connection = store.getConnection(); var statement = connection.createStatement()) {
            var tables = new ArrayList<String>();
            // Autovacuum's own rule (autovacuum_analyze_threshold 50 + autovacuum_analyze_scale_factor 0.1): a table
            // is analyzed once a tenth of it changed, not every period.
            try (var result = statement.executeQuery("SELECT relname FROM pg_stat_user_tables WHERE schemaname = '"
                    + schema.toLowerCase(java.util.Locale.ROOT) + "' AND n_mod_since_analyze > 50 + 0.1 * n_live_tup")) {
                while (result.next()) {
                    tables.add(result.getString(1));
                }
            }
            for (var table : tables) {
                statement.execute("ANALYZE " + schema + "." + table);
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        if (analyzer != null) {
            analyzer.interrupt();
        }
    }
}
