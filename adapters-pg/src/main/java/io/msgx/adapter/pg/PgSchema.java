package io.msgx.adapter.pg;

import org.flywaydb.core.Flyway;

import java.util.Objects;
import javax.sql.DataSource;

/**
 * Creates or upgrades the pipeline schema with Flyway from {@code classpath:db/migration/pg}, the single source of
 * the schema. Migrating an up-to-date schema changes nothing.
 */
public final class PgSchema {

    /** Where the versioned scripts live on the classpath. */
    public static final String LOCATION = "classpath:db/migration/pg";

    private PgSchema() {
    }

    /**
     * Bring {@code schema} (created when missing) to the latest version; returns how many migrations ran (0 when it
     * was up to date). The store's data source must then put {@code schema} on its search path.
     */
    public static int migrate(DataSource dataSource, String schema) {
        return flyway(dataSource, schema, "migrating schema " + schema, flyway -> flyway.migrate().migrationsExecuted);
    }

    /**
     * Whether the server analyzes tables by itself ({@code autovacuum = on}). The store's look-ups are planned from
     * table statistics; without autovacuum, tables that grew since their last {@code ANALYZE} are planned as if they
     * were still small (issue 9: a backlog's digest slowed down threefold), so the runner warns at start-up.
     */
    public static boolean autovacuumOn(DataSource dataSource) {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement();
             var result = statement.executeQuery("SHOW autovacuum")) {
            return result.next() && "on".equalsIgnoreCase(result.getString(1));
        } catch (java.sql.SQLException e) {
            throw new io.msgx.pipeline.store.StoreUnavailableException("reading the server's autovacuum setting", e);
        }
    }

    /**
     * Refuse to run against a schema this build does not know: missing, behind (migrations pending: run
     * {@code migrate}), ahead (written by a newer build), or altered after it was migrated.
     *
     * @throws IllegalStateException naming the schema, its version and what to do
     */
    public static void requireCurrent(DataSource dataSource, String schema) {
        flyway(dataSource, schema, "checking schema " + schema, flyway -> {
            var info = flyway.info();
            var current = info.current();
            if (current == null) {
                throw new IllegalStateException("Schema " + schema + " has no msgexchange tables: run 'migrate' first");
            }
            if (info.pending().length > 0) {
                throw new IllegalStateException("Schema " + schema + " is at version " + current.getVersion() + " and "
                        + info.pending().length + " migration(s) are pending: run 'migrate' first");
            }
            var validation = flyway.validateWithResult();
            if (!validation.validationSuccessful) {
                throw new IllegalStateException("Schema " + schema + " (version " + current.getVersion() + ") is not the "
                        + "one this build knows: " + validation.getAllErrorMessages()
                        + ". A newer build migrated it, or it was altered by hand; run the matching build.");
            }
            return 0;
        });
    }

    private static int flyway(DataSource dataSource, String schema, String operation,
                              java.util.function.ToIntFunction<Flyway> work) {
        Objects.requireNonNull(dataSource, "dataSource");
        if (schema == null || schema.isBlank()) {
            throw new IllegalArgumentException("name the schema (e.g. msgx)");
        }
        try {
            return work.applyAsInt(Flyway.configure()
                    .dataSource(dataSource)
                    .locations(LOCATION)
                    .schemas(schema)
                    .defaultSchema(schema)
                    .createSchemas(true)
                    .load());
        } catch (RuntimeException e) {
            if (StoreOperation.FAILURES.isUnavailable(e)) {
                throw StoreOperation.FAILURES.unavailable(operation, e);
            }
            throw e;
        }
    }
}
