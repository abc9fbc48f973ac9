package io.msgx.tools.bench;

import io.msgx.adapter.pg.PgSchema;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Stands in for autovacuum when the PostgreSQL under the bench runs with {@code autovacuum = off} (as the build
 * machines' does: {@code conf.d/90-ci.conf}). Without it the planner never learns that the store's tables grew from
 * empty to tens of thousands of rows, and plans every look-up as if they were empty — the digest then measures the
 * missing statistics, not the pipeline (at 50,000 messages it fell from ~700 to 250 msg/s); and nothing removes the
 * dead row versions every confirmed delivery and every re-armed event leaves behind, so the dispatcher's claims wade
 * through them (at 1,000,000 messages the dispatcher alone fell to 5,780 events/s). A production PostgreSQL does both
 * itself; this keeps the bench's tables as autovacuum would, with autovacuum's default rules: every
 * {@link #PERIOD_MILLIS}, on a daemon thread, it runs {@code VACUUM} on each table of the store schema with more
 * than 50 + 20 % dead rows (throttled as autovacuum is, {@code vacuum_cost_delay} 2 ms) and {@code ANALYZE} on each
 * of which more than 50 rows + 10 % changed since its last analysis. It does nothing when autovacuum is on.
 */
final class StatisticsKeeper implements AutoCloseable {

    static final long PERIOD_MILLIS = 10_000;
    private static final long CLOSE_WAIT_MILLIS = 5_000;

    private final DataSource store;
    private final String schema;
    private final Thread analyzer;
    private final AtomicLong rounds = new AtomicLong();
    private volatile boolean stopped;
    /** The statement running now, if any: cancelled by {@link #close()} so the pool never closes under it. */
    private volatile Statement running;

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
            running = statement;
            if (stopped) {
                return;
            }
            var schemaName = schema.toLowerCase(Locale.ROOT);
            // Autovacuum's own rules: autovacuum_vacuum_threshold 50 + autovacuum_vacuum_scale_factor 0.2 dead rows;
            // autovacuum_analyze_threshold 50 + autovacuum_analyze_scale_factor 0.1 changed rows.
            var vacuums = tables(statement, schemaName, "n_dead_tup > 50 + 0.2 * n_live_tup");
            var analyses = tables(statement, schemaName, "n_mod_since_analyze > 50 + 0.1 * n_live_tup");
            if (!vacuums.isEmpty()) {
                statement.execute("SET vacuum_cost_delay = 2"); // autovacuum_vacuum_cost_delay
                for (var table : vacuums) {
                    statement.execute("VACUUM " + schema + "." + table);
                }
            }
            for (var table : analyses) {
                statement.execute("ANALYZE " + schema + "." + table);
            }
        } finally {
            running = null;
        }
    }

    private static List<String> tables(Statement statement, String schema, String rule)
            throws SQLException {
        var tables = new ArrayList<String>();
        try (var result = statement.executeQuery("SELECT relname FROM pg_stat_user_tables WHERE schemaname = '"
                + schema + "' AND " + rule)) {
            while (result.next()) {
                tables.add(result.getString(1));
            }
        }
        return tables;
    }

    /**
     * Stops the keeper before the bench closes its pool: a {@code VACUUM} still running (a million-row outbox takes
     * seconds, throttled) is cancelled, and the thread is awaited, so no connection is closed under a statement.
     */
    @Override
    public void close() {
        stopped = true;
        if (analyzer == null) {
            return;
        }
        analyzer.interrupt();
        var statement = running;
        if (statement != null) {
            try {
                statement.cancel();
            } catch (SQLException e) {
                // Already finished or closed: nothing left to cancel.
            }
        }
        try {
            analyzer.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
