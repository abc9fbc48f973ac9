package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.VersionedScripts;
import io.msgx.adapter.jdbc.VersionedScripts.Script;
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
 * checksum; migrating an up-to-date schema changes nothing. The scripts are the {@code V<n>__*.sql} files the build
 * packed in {@code db/oracle}, applied in the order of their numbers; numbers may be skipped (from V18 on both stores
 * share one numbering, D-147: Oracle's next script after V14 is V18), but a script is never applied under a version the
 * schema has already passed.
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

    static final String VERSION_TABLE = "MSGX_SCHEMA_VERSION";
    private static final String VERSION_TABLE_SCRIPT = "schema_version.sql";

    /**
     * The scripts of this build, listed from {@link #LOCATION} where the build packed them (a directory or the jar:
     * nobody keeps their list), in the order of their version numbers. Versions may skip numbers (D-147: after V14,
     * Oracle's next script is V18, the first version both stores share).
     */
    static final Scripts BUILD = Scripts.onClasspath(OracleSchema.class.getClassLoader(), LOCATION);

    /** {@link #BUILD}'s scripts, in version order. */
    static final List<Script> SCRIPTS = BUILD.scripts();

    /** An unquoted Oracle identifier as 11g allows it: a letter, then letters, digits, _, $ or #; at most 30 characters. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_$#]{0,29}");

    /** The version this build writes and expects: the highest of its scripts. */
    public static final int CURRENT_VERSION = BUILD.current();

    private OracleSchema() {
    }

    /**
     * Bring the schema of {@code dataSource}'s user to {@link #CURRENT_VERSION}, applying the missing scripts in
     * order and recording each; returns how many ran (0 when it was up to date).
     *
     * @throws IllegalStateException when the schema is newer than this build or a recorded script was changed
     */
    public static int migrate(DataSource dataSource) {
        return migrate(dataSource, BUILD);
    }

    /** The versions this build has a script for, increasing (they may skip numbers, D-147). */
    public static List<Integer> versions() {
        return BUILD.versions();
    }

    /** {@link #migrate(DataSource)} with the scripts {@code scripts} (tests: a set with gaps, from a jar). */
    static int migrate(DataSource dataSource, Scripts scripts) {
        return withConnection(dataSource, "migrating the Oracle schema", connection -> {
            if (!versionTableExists(connection)) {
                execute(connection, VERSION_TABLE_SCRIPT, scripts.read(VERSION_TABLE_SCRIPT));
            }
            var applied = applied(connection);
            refuseUnknown(applied, scripts);
            int highest = highest(applied);
            int ran = 0;
            for (var script : scripts.scripts()) {
                if (applied.containsKey(script.version())) {
                    continue;
                }
                if (script.version() < highest) {
                    throw new IllegalStateException("The Oracle schema is at version " + highest + " but this build's "
                            + script.name() + " was never applied to it: a script was added under a version the "
                            + "schema had passed. Give the script the next free version of both stores (D-147) and "
                            + "migrate again");
                }
                var text = scripts.read(script.name());
                execute(connection, script.name(), text);
                record(connection, script, checksum(text));
                log.info("Oracle schema: applied {}", script.name());
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
        requireCurrent(dataSource, BUILD);
    }

    /** {@link #requireCurrent(DataSource)} with the scripts {@code scripts}. */
    static void requireCurrent(DataSource dataSource, Scripts scripts) {
        withConnection(dataSource, "checking the Oracle schema version", connection -> {
            if (!versionTableExists(connection)) {
                throw new IllegalStateException("The Oracle schema has no " + VERSION_TABLE + " table (found version "
                        + "none, expected " + scripts.current() + "): run 'migrate' (OracleSchema.migrate; or apply "
                        + LOCATION + "/*.sql by hand, see the adapters-oracle README) first");
            }
            var applied = applied(connection);
            refuseUnknown(applied, scripts);
            var missing = scripts.scripts().stream().filter(script -> !applied.containsKey(script.version())).toList();
            if (!missing.isEmpty()) {
                throw new IllegalStateException("The Oracle schema is at version " + highest(applied) + " ("
                        + applied.size() + " of " + scripts.scripts().size() + " scripts applied, missing " + missing
                        + "), expected " + scripts.current() + ": run 'migrate' (OracleSchema.migrate) first");
            }
            return 0;
        });
    }

    /** The version recorded in the schema (0 when it has no version table or no row). */
    public static int versionOf(DataSource dataSource) {
        return withConnection(dataSource, "reading the Oracle schema version", connection -> versionTableExists(connection)
                ? highest(applied(connection))
                : 0);
    }

    private static int highest(Map<Integer, Long> applied) {
        return applied.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /**
     * Unknown or changed scripts: a newer build wrote this schema, another build recorded a version this one has no
     * script for, or someone edited a script after applying it.
     */
    private static void refuseUnknown(Map<Integer, Long> applied, Scripts scripts) {
        for (var entry : applied.entrySet()) {
            int version = entry.getKey();
            var known = scripts.script(version);
            if (known == null) {
                if (version > scripts.current()) {
                    throw new IllegalStateException("The Oracle schema is at version " + version + ", this build knows "
                            + "versions " + scripts.describeVersions() + " (expected " + scripts.current()
                            + "): a newer build migrated it; run that build, or restore a backup of the matching "
                            + "version");
                }
                throw new IllegalStateException("The Oracle schema has version " + version + " recorded, which this "
                        + "build has no script for (it knows versions " + scripts.describeVersions() + "): another "
                        + "build (a branch?) migrated it; run that build, or restore a backup of the matching version");
            }
            var recorded = entry.getValue();
            long expected = checksum(scripts.read(known.name()));
            if (recorded != null && recorded != expected) {
                throw new IllegalStateException("The Oracle schema's version " + version + " (" + known.name() + ") "
                        + "was applied from a different script (checksum " + recorded + ", this build's is "
                        + expected + "): the schema is not the one this build expects; run the "
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

    private static void record(Connection connection, Script script, long checksum) throws SQLException {
        try (var insert = connection.prepareStatement("INSERT INTO " + VERSION_TABLE
                + " (VERSION, DESCRIPTION, SCRIPT, CHECKSUM, INSTALLED_AT)"
                + " VALUES (?, ?, ?, ?, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP))")) {
            insert.setInt(1, script.version());
            insert.setString(2, script.readableDescription());
            insert.setString(3, script.name());
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

    /** This build's script {@code script} (or {@code schema_version.sql}), with '\n' line ends. */
    static String read(String script) {
        return BUILD.read(script);
    }

    /**
     * A set of versioned scripts and where to read them: this build's ({@link #BUILD}), or a test's.
     *
     * @param scripts in increasing version order, at least one
     */
    record Scripts(ClassLoader loader, String location, List<Script> scripts) {

        Scripts {
            scripts = List.copyOf(scripts);
            if (scripts.isEmpty()) {
                throw new IllegalStateException(location + " holds no versioned script V<n>__*.sql: the "
                        + "adapters-oracle jar is incomplete");
            }
        }

        /** The scripts of {@code location} on {@code loader}'s class path (a directory or a jar). */
        static Scripts onClasspath(ClassLoader loader, String location) {
            return new Scripts(loader, location,
                    VersionedScripts.inOrder(VersionedScripts.list(loader, location, VERSION_TABLE_SCRIPT)));
        }

        int current() {
            return scripts.get(scripts.size() - 1).version();
        }

        List<Integer> versions() {
            return scripts.stream().map(Script::version).toList();
        }

        /** The script of {@code version}, or null. */
        Script script(int version) {
            return scripts.stream().filter(script -> script.version() == version).findFirst().orElse(null);
        }

        /** "1 to 14" or "1 to 14, 18 to 19": the versions, runs of consecutive numbers written as ranges. */
        String describeVersions() {
            var text = new StringBuilder();
            var versions = versions();
            int from = versions.get(0);
            for (int i = 1; i <= versions.size(); i++) {
                if (i == versions.size() || versions.get(i) != versions.get(i - 1) + 1) {
                    int to = versions.get(i - 1);
                    text.append(text.length() == 0 ? "" : ", ").append(from == to ? "" + from : from + " to " + to);
                    if (i < versions.size()) {
                        from = versions.get(i);
                    }
                }
            }
            return text.toString();
        }

        String read(String script) {
            try (InputStream in = loader.getResourceAsStream(location + "/" + script)) {
                if (in == null) {
                    throw new IllegalStateException(location + "/" + script + " is missing from the classpath: the "
                            + "adapters-oracle jar is incomplete");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("\r\n", "\n");
            } catch (IOException e) {
                throw new IllegalStateException("cannot read " + location + "/" + script, e);
            }
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
