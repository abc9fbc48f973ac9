package io.msgx.adapter.pg;

import org.flywaydb.core.Flyway;

import javax.sql.DataSource;
import java.util.Objects;

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
        Objects.requireNonNull(dataSource, "dataSource");
        if (schema == null || schema.isBlank()) {
            throw new IllegalArgumentException("name the schema to migrate (e.g. msgx)");
        }
        try {
            return Flyway.configure()
                    .dataSource(dataSource)
                    .locations(LOCATION)
                    .schemas(schema)
                    .defaultSchema(schema)
                    .createSchemas(true)
                    .load()
                    .migrate()
                    .migrationsExecuted;
        } catch (RuntimeException e) {
            if (StoreOperation.isUnavailable(e)) {
                throw StoreOperation.unavailable("migrating schema " + schema, e);
            }
            throw e;
        }
    }
}
