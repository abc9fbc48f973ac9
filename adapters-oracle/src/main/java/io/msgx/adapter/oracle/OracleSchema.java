package io.msgx.adapter.oracle;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import javax.sql.DataSource;

/**
 * Creates or upgrades the pipeline schema on Oracle 11g from the versioned scripts in {@code db/oracle} (the Oracle
 * twin of {@code PgSchema}; Flyway's free edition does not support 11g). The schema is the connecting user's
 * (its current schema). Applied scripts are recorded in {@code MSGX_SCHEMA_VERSION}, one row per script with its
 * checksum; migrating an up-to-date schema changes nothing.
 *
 * <p>Scripts hold plain SQL statements, each ending with {@code ;} at the end of a line, and full-line {@code --}
 * comments; no PL/SQL block. Oracle commits every DDL statement at once: a script that fails half-way leaves the
 * objects it created so far, and is not recorded (the exception names the statement; drop those objects by hand,
 * fix the cause and migrate again). Run {@code migrate} from one place at a time.
 */
public final class OracleSchema {

    private static final Logger log = LoggerFactory.getLogger(OracleSchema.class);

    /** Where the versioned scripts live on the classpath. */
    public static final String LOCATION = "db/oracle";

    /** The scripts of this build, in order; version n is the n-th. */
    static final List<String> SCRIPTS = List.of(
            "V1__pipeline_schema.sql",
            "V2__delivery_indexes.sql",
            "V3__lifecycle.sql",
            "V4__request_track.sql",
            "V5__dispatch_retrying_index.sql",
            "V6__sis_contract_v2_flight.sql",
            "V7__reference_outbox.sql",
            "V8__self_test.sql",
            "V9__flight_version_floor.sql",
            "V10__backfill_failing_since.sql",
            "V11__leader_lease.sql",
            "V12__request_seqn_cycles.sql",
            "V13__sis_contract_v3_flight.sql",
            "V14__operator_audit.sql");

    /** An unquoted Oracle identifier as 11g allows it: a letter, then letters, digits, _, $ or #; at most 30 characters. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_$#]{0,29}");

    /** The version this build writes and expects. */
    public static final int CURRENT_VERSION = SCRIPTS.size();

    static final String VERSION_TABLE = "MSGX_SCHEMA_VERSION";
    private static final String VERSION_TABLE_SCRIPT = "schema_version.sql";

    private OracleSchema() {
    }

    /**
     * Bring the schema of {@code dataSource}'s user to {@link #CURRENT_VERSION}, applying the missing scripts in
     * order and recording each; returns how many ran (0 when it was up to date).
     *
     * @throws IllegalStateException when the schema is newer than this build or a recorded script was changed
     */
    public static int migrate(DataSource dataSource) {
        return withConnection(dataSource, "migrating the Oracle schema", connection -> {
            if (!versionTableExists(connection)) {
                execute(connection, VERSION_TABLE_SCRIPT, read(VERSION_TABLE_SCRIPT));
            }
            var applied = applied(connection);
            refuseUnknown(applied);
            int ran = 0;
            for (int version = 1; version <= CURRENT_VERSION; version++) {
                if (applied.containsKey(version)) {
                    continue;
                }
                var script = SCRIPTS.get(version - 1);
                var text = read(script);
                execute(connection, script, text);
                record(connection, version, script, checksum(text));
                log.info("Oracle schema: applied {}", script);
                ran++;
            }
            return ran;
        });
    }

    /**
     * Refuse to run against a schema this build does not know: no version table (never migrated), behind (run
     * {@link #migrate}), ahead (migrated by a newer build), or a recorded script changed since.
     *
     * @throws IllegalStateException naming the version found, the version expected and what to do
     */
    public static void requireCurrent(DataSource dataSource) {
        withConnection(dataSource, "checking the Oracle schema version", connection -> {
            if (!versionTableExists(connection)) {
                throw new IllegalStateException("The Oracle schema has no " + VERSION_TABLE + " table (found version "
                        + "none, expected " + CURRENT_VERSION + "): run 'migrate' (OracleSchema.migrate; or apply "
                        + LOCATION + "/*.sql by hand, see the adapters-oracle README) first");
            }
            var applied = applied(connection);
            refuseUnknown(applied);
            int found = applied.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
            if (applied.size() < CURRENT_VERSION) {
                throw new IllegalStateException("The Oracle schema is at version " + found + " (" + applied.size()
                        + " of " + CURRENT_VERSION + " scripts applied), expected " + CURRENT_VERSION
                        + ": run 'migrate' (OracleSchema.migrate) first");
            }
            return 0;
        });
    }

    /** The version recorded in the schema (0 when it has no version table or no row). */
    public static int versionOf(DataSource dataSource) {
        return withConnection(dataSource, "reading the Oracle schema version", connection -> versionTableExists(connection)
                ? applied(connection).keySet().stream().mapToInt(Integer::intValue).max().orElse(0)
                : 0);
    }

    /** Newer or changed scripts: a newer build wrote this schema, or someone edited a script after applying it. */
    private static void refuseUnknown(Map<Integer, Long> applied) {
        for (var entry : applied.entrySet()) {
            int version = entry.getKey();
            if (version < 1 || version > CURRENT_VERSION) {
                throw new IllegalStateException("The Oracle schema is at version " + version + ", this build knows "
                        + "versions 1 to " + CURRENT_VERSION + " (expected " + CURRENT_VERSION + "): a newer build "
                        + "migrated it; run that build, or restore a backup of the matching version");
            }
            var script = SCRIPTS.get(version - 1);
            var recorded = entry.getValue();
            if (recorded != null && recorded != checksum(read(script))) {
                throw new IllegalStateException("The Oracle schema's version " + version + " (" + script + ") was "
                        + "applied from a different script (checksum " + recorded + ", this build's is "
                        + checksum(read(script)) + "): the schema is not the one this build expects; run the "
                        + "matching build, or have a DBA reconcile the schema by hand");
            }
        }
    }

    private static boolean versionTableExists(Connection connection) throws SQLException {
        try (var tables = connection.getMetaData().getTables(null, connection.getSchema(), VERSION_TABLE,
                new String[]{"TABLE"})) {
            return tables.next();
        }
    }

    /** Recorded versions and their checksums (null when recorded by hand without one). */
    private static Map<Integer, Long> applied(Connection connection) throws SQLException {
        var versions = new LinkedHashMap<Integer, Long>();
        try (var statement = connection.createStatement();
             var rows = statement.executeQuery("SELECT VERSION, CHECKSUM FROM " + VERSION_TABLE + " ORDER BY VERSION")) {
            while (rows.next()) {
                int version = rows.getInt(1);
                long checksum = rows.getLong(2);
                versions.put(version, rows.wasNull() ? null : checksum);
            }
        }
        return versions;
    }

    private static void record(Connection connection, int version, String script, long checksum) throws SQLException {
        try (var insert = connection.prepareStatement("INSERT INTO " + VERSION_TABLE
                + " (VERSION, DESCRIPTION, SCRIPT, CHECKSUM, INSTALLED_AT)"
                + " VALUES (?, ?, ?, ?, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP))")) {
            insert.setInt(1, version);
            insert.setString(2, description(script));
            insert.setString(3, script);
            insert.setLong(4, checksum);
            insert.executeUpdate();
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    private static void execute(Connection connection, String script, String text) throws SQLException {
        var statements = statements(text);
        for (int i = 0; i < statements.size(); i++) {
            try (var statement = connection.createStatement()) {
                statement.execute(statements.get(i));
            } catch (SQLException e) {
                if (OracleDialect.FAILURES.isUnavailable(e)) {
                    throw e;
                }
                throw new IllegalStateException(script + " failed at statement " + (i + 1) + " of "
                        + statements.size() + " (" + e.getMessage().strip() + "): " + statements.get(i)
                        + "\nOracle has committed the statements before it; drop what they created, fix the cause and "
                        + "migrate again", e);
            }
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    /** The statements of a script: split on ';' at the end of a line, full-line '--' comments dropped. */
    static List<String> statements(String script) {
        var statements = new ArrayList<String>();
        var current = new StringBuilder();
        for (var line : script.split("\n", -1)) {
            var trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            if (trimmed.endsWith(";")) {
                current.append(line, 0, line.lastIndexOf(';'));
                statements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        if (!current.toString().isBlank()) {
            throw new IllegalStateException("a script ends without ';' after its last statement: " + current);
        }
        return statements;
    }

    /** CRC-32 of the script text with '\n' line ends (so a checkout with CRLF gives the same sum). */
    static long checksum(String text) {
        var crc = new CRC32();
        crc.update(text.replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    private static String description(String script) {
        return script.substring(script.indexOf("__") + 2, script.length() - ".sql".length()).replace('_', ' ');
    }

    static String read(String script) {
        try (InputStream in = OracleSchema.class.getClassLoader().getResourceAsStream(LOCATION + "/" + script)) {
            if (in == null) {
                throw new IllegalStateException(LOCATION + "/" + script + " is missing from the classpath: the "
                        + "adapters-oracle jar is incomplete");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + LOCATION + "/" + script, e);
        }
    }

    @FunctionalInterface
    private interface SchemaWork {
        int run(Connection connection) throws SQLException;
    }

    private static int withConnection(DataSource dataSource, String operation, SchemaWork work) {
        Objects.requireNonNull(dataSource, "dataSource");
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw OracleDialect.FAILURES.unavailable(operation, e);
        }
        try (connection) {
            return work.run(connection);
        } catch (SQLException e) {
            throw OracleDialect.ORACLE.failure(operation, e);
        }
    }
}
