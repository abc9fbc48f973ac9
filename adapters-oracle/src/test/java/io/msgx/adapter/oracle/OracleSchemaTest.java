package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.FlightTables;
import io.msgx.adapter.jdbc.VersionedScripts;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The versioned scripts build the schema the design names (the tables and columns of adapters-pg), seed its single
 * rows, keep to 11g's 30-character identifiers, and are recorded in MSGX_SCHEMA_VERSION: migrating twice is a no-op,
 * and {@link OracleSchema#requireCurrent} refuses a schema that is missing, behind, ahead or altered.
 */
class OracleSchemaTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    @RegisterExtension
    final OracleTestDatabase unmigrated = OracleTestDatabase.unmigrated();
    private final OracleProbe probe = new OracleProbe(database);

    /** A real Oracle schema is shared by the tests: put back the rows a test tampered with. */
    @AfterEach
    void restoreVersionRows() {
        if (database.isRealOracle()) {
            probe.sql(session -> {
                session.update("DELETE FROM MSGX_SCHEMA_VERSION");
                for (var script : OracleSchema.SCRIPTS) {
                    session.update("INSERT INTO MSGX_SCHEMA_VERSION (VERSION, DESCRIPTION, SCRIPT, CHECKSUM,"
                                    + " INSTALLED_AT) VALUES (?, ?, ?, ?, ?)", script.version(),
                            script.readableDescription(), script.name(),
                            OracleSchema.checksum(OracleSchema.read(script.name())), java.time.Instant.EPOCH);
                }
                return null;
            });
        }
    }

    @Test
    void migratingAnUpToDateSchemaChangesNothing() {
        var before = columns();

        assertThat(OracleSchema.migrate(database.dataSource())).isZero();
        assertThat(OracleSchema.migrate(database.dataSource())).isZero();

        assertThat(columns()).isEqualTo(before);
        assertThat(probe.strings("SELECT TO_CHAR(VERSION) || ':' || SCRIPT AS V FROM MSGX_SCHEMA_VERSION ORDER BY VERSION"))
                .containsExactlyElementsOf(OracleSchema.SCRIPTS.stream()
                        .map(script -> script.version() + ":" + script.name()).toList())
                .startsWith("1:V1__pipeline_schema.sql", "2:V2__delivery_indexes.sql")
                .contains("14:V14__operator_audit.sql");
        assertThat(OracleSchema.versionOf(database.dataSource())).isEqualTo(OracleSchema.CURRENT_VERSION);
        OracleSchema.requireCurrent(database.dataSource());
    }

    @Test
    void aSchemaBehindThisBuildIsRefusedNamingBothVersions() {
        probe.sql(session -> session.update("DELETE FROM MSGX_SCHEMA_VERSION WHERE VERSION = ?", OracleSchema.CURRENT_VERSION));
        var versions = OracleSchema.versions();

        assertThatThrownBy(() -> OracleSchema.requireCurrent(database.dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at version " + versions.get(versions.size() - 2))
                .hasMessageContaining("expected " + OracleSchema.CURRENT_VERSION).hasMessageContaining("migrate");
    }

    @Test
    void aSchemaOfANewerBuildIsRefusedAndNotMigrated() {
        probe.sql(session -> session.update("INSERT INTO MSGX_SCHEMA_VERSION (VERSION, DESCRIPTION, SCRIPT, CHECKSUM,"
                + " INSTALLED_AT) VALUES (?, 'from the future', 'V99__future.sql', NULL, ?)", OracleSchema.CURRENT_VERSION + 1,
                java.time.Instant.EPOCH));

        assertThatThrownBy(() -> OracleSchema.requireCurrent(database.dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at version " + (OracleSchema.CURRENT_VERSION + 1))
                .hasMessageContaining("expected " + OracleSchema.CURRENT_VERSION).hasMessageContaining("newer build");
        assertThatThrownBy(() -> OracleSchema.migrate(database.dataSource()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("newer build");
    }

    @Test
    void aSchemaMigratedFromAnAlteredScriptIsRefused() {
        probe.sql(session -> session.update("UPDATE MSGX_SCHEMA_VERSION SET CHECKSUM = 42 WHERE VERSION = 2"));

        assertThatThrownBy(() -> OracleSchema.requireCurrent(database.dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V2__delivery_indexes.sql").hasMessageContaining("checksum 42");
    }

    @Test
    void rowsRecordedByHandWithoutChecksumAreAcceptedByVersion() {
        probe.sql(session -> session.update("UPDATE MSGX_SCHEMA_VERSION SET CHECKSUM = NULL"));

        OracleSchema.requireCurrent(database.dataSource());
    }

    @Test
    void aSchemaNeverMigratedIsRefused() {
        assumeFalse(database.isRealOracle(), "a real Oracle schema is shared by the tests and stays migrated");
        probe.sql(session -> session.update("DROP TABLE MSGX_SCHEMA_VERSION"));

        assertThatThrownBy(() -> OracleSchema.requireCurrent(database.dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("found version none, expected " + OracleSchema.CURRENT_VERSION).hasMessageContaining("migrate");
        assertThat(OracleSchema.versionOf(database.dataSource())).isZero();
    }

    /**
     * The tables and sequences themselves are compared with the reference store's in app-runner
     * ({@code StoreSchemasTest}: the same tables as PostgreSQL, no list kept by hand); here, what this module's code
     * names.
     */
    @Test
    void theTablesTheCodeNamesExist() {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var tables = probe.strings("SELECT TABLE_NAME AS V FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'");
        assertThat(tables).contains(OracleSchema.VERSION_TABLE, "FLIGHT_SCHD")
                .containsAll(FlightTables.ALL.stream().map(FlightTables::table).toList());
        // D-104: when the transient failures of an owed mark began, kept in the history with the other columns.
        assertThat(columnsOf("PROC_STATE")).contains("BACKFILL_FAILING_SINCE");
        assertThat(columnsOf("PROC_STATE_HST")).contains("BACKFILL_FAILING_SINCE");
    }

    @Test
    void emptyingTheTablesEmptiesEveryTableButTheVersionsAndPutsBackWhatAFreshMigrationHolds() throws SQLException {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var fresh = contents();
        assertThat(fresh.keySet()).as("the tables emptied: all of the catalog's but the version table")
                .containsExactlyInAnyOrderElementsOf(OracleTestDatabase.tables(database.dataSource().getConnection()));
        probe.sql(session -> session.update("UPDATE PIPELINE_LOCK SET NAME = 'CHANGED'"));
        probe.sql(session -> session.update("UPDATE LEADER_LEASE SET EPOCH = 7"));

        try (var connection = database.dataSource().getConnection(); var statement = connection.createStatement()) {
            OracleTestDatabase.emptyTables(statement);
        }

        assertThat(contents()).isEqualTo(fresh);
    }

    /** Every table's rows but the version table's, as text, times left out (a re-seeded row gets a new one). */
    private java.util.Map<String, List<String>> contents() throws SQLException {
        var contents = new java.util.TreeMap<String, List<String>>();
        for (var table : probe.strings("SELECT TABLE_NAME AS V FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'"
                + " AND TABLE_NAME <> ?", OracleSchema.VERSION_TABLE)) {
            var rows = new ArrayList<String>();
            try (var connection = database.dataSource().getConnection(); var statement = connection.createStatement();
                 var result = statement.executeQuery("SELECT * FROM " + table)) {
                while (result.next()) {
                    var row = new StringBuilder();
                    for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                        var value = result.getObject(i);
                        boolean time = value instanceof java.util.Date || value instanceof java.time.temporal.Temporal;
                        row.append(result.getMetaData().getColumnName(i)).append('=').append(time ? "(time)" : value)
                                .append(' ');
                    }
                    rows.add(row.toString());
                }
            }
            contents.put(table, rows);
        }
        return contents;
    }

    @Test
    void theCursorStartsAtZeroNeverSeededAndTheLockRowExists() {
        assertThat(probe.strings("SELECT TO_CHAR(ID) || ':' || TO_CHAR(W) || ':' || NVL(TO_CHAR(HOLE_SINCE), '-')"
                + " || ':' || NVL(TO_CHAR(SEEDED_AT), '-') AS V FROM INBOX_CURSOR")).containsExactly("1:0:-:-");
        assertThat(probe.strings("SELECT NAME AS V FROM PIPELINE_LOCK")).containsExactly("PIPELINE");
    }

    @Test
    void theMainRowHasOneColumnPerFlightFieldAndEachDetailTableOnePerItemField() {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var main = columnsOf("FLIGHT_SCHD");
        for (var field : FlightField.values()) {
            assertThat(main).as("FLIGHT_SCHD." + field).contains(field.code());
        }
        for (var table : FlightTables.ALL) {
            var expected = new ArrayList<>(List.of("FLID", "ORDINAL", "SOURCE_SEQ"));
            expected.addAll(table.itemCodes());
            if (table.routeKind()) {
                expected.add("ROUTE_KIND");
            }
            assertThat(columnsOf(table.table())).as(table.table()).containsAll(expected);
        }
        assertThat(FlightTables.ALL).flatExtracting(FlightTables::lists).containsExactlyInAnyOrder(FlightList.values());
    }

    @Test
    void everyIdentifierFitsOracle11g() {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var names = new ArrayList<String>();
        names.addAll(probe.strings("SELECT TABLE_NAME AS V FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'"));
        names.addAll(probe.strings("SELECT COLUMN_NAME AS V FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC'"));
        names.addAll(probe.strings("SELECT INDEX_NAME AS V FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_SCHEMA = 'PUBLIC'"
                + " AND INDEX_NAME NOT LIKE '%_INDEX_%'"));
        names.addAll(probe.strings("SELECT CONSTRAINT_NAME AS V FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE TABLE_SCHEMA = 'PUBLIC'"));
        names.addAll(probe.strings("SELECT SEQUENCE_NAME AS V FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = 'PUBLIC'"));
        assertThat(names).hasSizeGreaterThan(100).allSatisfy(name -> assertThat(name.length()).as(name).isLessThanOrEqualTo(30));
    }

    @Test
    void theScriptsKeepTo11gSql() throws IOException {
        var forbidden = Pattern.compile("(?i)\\b(IDENTITY|FETCH\\s+FIRST|OFFSET|RETURNING|INSERT\\s+ALL|BOOLEAN"
                + "|TIMESTAMPTZ|TEXT\\s+(NOT\\s+)?NULL|BIGINT|ON\\s+CONFLICT|BEGIN|DECLARE)\\b");
        for (var script : OracleSchema.SCRIPTS) {
            for (var statement : OracleSchema.statements(OracleSchema.read(script.name()))) {
                assertThat(forbidden.matcher(statement).find()).as(script + ": " + statement).isFalse();
            }
        }
    }

    @Test
    void theBuildKnowsEveryScriptOfItsFolderInOrder() throws IOException {
        var folder = Path.of("src/main/resources", OracleSchema.LOCATION);
        assumeTrue(Files.isDirectory(folder), "reads the scripts' folder in the source tree, which the self-test of "
                + "an installed build does not have");
        try (Stream<Path> files = Files.list(folder)) {
            // By version number: as text, V10 would sort before V2.
            assertThat(VersionedScripts.inOrder(files.map(path -> path.getFileName().toString()).toList()))
                    .containsExactlyElementsOf(OracleSchema.SCRIPTS);
        }
        assertThat(OracleSchema.versions()).isSorted().doesNotHaveDuplicates().startsWith(1, 2, 3)
                // D-147: 15 to 17 are PostgreSQL's last scripts of the separate numbering; Oracle never uses them.
                .doesNotContain(15, 16, 17);
        assertThat(OracleSchema.CURRENT_VERSION).isEqualTo(OracleSchema.versions().get(OracleSchema.versions().size() - 1));
    }

    @Test
    void scriptsThatSkipNumbersAreAppliedInTheOrderOfTheirNumbers(@TempDir Path folder) throws IOException {
        assumeFalse(database.isRealOracle(), "needs a schema of its own");
        var scripts = scriptsIn(folder, false, "V1__a.sql", "V2__b.sql", "V10__c.sql", "V18__d.sql");
        assertThat(scripts.versions()).containsExactly(1, 2, 10, 18);
        assertThat(scripts.describeVersions()).isEqualTo("1 to 2, 10, 18");
        var dataSource = unmigrated.dataSource();

        assertThat(OracleSchema.migrate(dataSource, scripts)).isEqualTo(4);
        assertThat(OracleSchema.migrate(dataSource, scripts)).isZero();

        OracleSchema.requireCurrent(dataSource, scripts);
        assertThat(OracleSchema.versionOf(dataSource)).isEqualTo(18);
        assertThat(new OracleProbe(unmigrated).strings("SELECT TO_CHAR(VERSION) || ':' || DESCRIPTION || ':' || SCRIPT"
                + " AS V FROM MSGX_SCHEMA_VERSION ORDER BY VERSION"))
                .containsExactly("1:a:V1__a.sql", "2:b:V2__b.sql", "10:c:V10__c.sql", "18:d:V18__d.sql");
        // D-147: the order is the numbers', the table of V10 exists after V2's.
        assertThat(new OracleProbe(unmigrated).strings("SELECT TABLE_NAME AS V FROM INFORMATION_SCHEMA.TABLES"
                + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME LIKE 'T\\_%' ORDER BY 1"))
                .containsExactly("T_A", "T_B", "T_C", "T_D");
    }

    @Test
    void aScriptAddedUnderAVersionTheSchemaPassedIsRefusedAndAVersionWithoutScriptToo(@TempDir Path folder)
            throws IOException {
        assumeFalse(database.isRealOracle(), "needs a schema of its own");
        var dataSource = unmigrated.dataSource();
        OracleSchema.migrate(dataSource, scriptsIn(folder.resolve("before"), false, "V1__a.sql", "V18__d.sql"));

        var withAScriptBelow = scriptsIn(folder.resolve("after"), false, "V1__a.sql", "V15__b.sql", "V18__d.sql");
        assertThatThrownBy(() -> OracleSchema.migrate(dataSource, withAScriptBelow))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("at version 18")
                .hasMessageContaining("V15__b.sql was never applied").hasMessageContaining("next free version");
        assertThatThrownBy(() -> OracleSchema.requireCurrent(dataSource, withAScriptBelow))
                .hasMessageContaining("missing [V15__b.sql]").hasMessageContaining("run 'migrate'");

        var withoutV18 = scriptsIn(folder.resolve("branch"), false, "V1__a.sql", "V18__d.sql", "V20__e.sql");
        new OracleProbe(unmigrated).sql(session -> session.update("UPDATE MSGX_SCHEMA_VERSION SET VERSION = 19"
                + " WHERE VERSION = 18"));
        assertThatThrownBy(() -> OracleSchema.requireCurrent(dataSource, withoutV18))
                .hasMessageContaining("version 19 recorded, which this build has no script for")
                .hasMessageContaining("knows versions 1, 18, 20");
    }

    @Test
    void theScriptsAreListedFromAJarAsFromAFolder(@TempDir Path folder) throws IOException {
        var scripts = scriptsIn(folder, true, "V2__b.sql", "V1__a.sql", "V10__c.sql");

        assertThat(scripts.scripts()).extracting(VersionedScripts.Script::name)
                .containsExactly("V1__a.sql", "V2__b.sql", "V10__c.sql");
        assertThat(scripts.read("V10__c.sql")).contains("CREATE TABLE T_C");
    }

    /** {@code names}' scripts (each creating a table T_&lt;description&gt;) and schema_version.sql, in a folder or jar. */
    private static OracleSchema.Scripts scriptsIn(Path root, boolean jar, String... names) throws IOException {
        var files = new java.util.LinkedHashMap<String, String>();
        files.put(OracleSchema.LOCATION + "/schema_version.sql", OracleSchema.read("schema_version.sql"));
        for (var name : names) {
            var description = VersionedScripts.parse(name).description().toUpperCase(java.util.Locale.ROOT);
            files.put(OracleSchema.LOCATION + "/" + name, "-- a test script\nCREATE TABLE T_" + description
                    + " (X NUMBER(1));\n");
        }
        Files.createDirectories(root);
        java.net.URL url;
        if (jar) {
            var file = root.resolve("scripts.jar");
            try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(file))) {
                for (var entry : files.entrySet()) {
                    // No entry for the folder itself: the listing must not need one.
                    out.putNextEntry(new java.util.jar.JarEntry(entry.getKey()));
                    out.write(entry.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    out.closeEntry();
                }
            }
            url = file.toUri().toURL();
        } else {
            for (var entry : files.entrySet()) {
                var file = root.resolve(entry.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, entry.getValue());
            }
            url = root.toUri().toURL();
        }
        // No parent: the build's own db/oracle must not be found beside the test's.
        var loader = new java.net.URLClassLoader(new java.net.URL[]{url}, null);
        return OracleSchema.Scripts.onClasspath(loader, OracleSchema.LOCATION);
    }

    @Test
    void statementsAreSplitAtASemicolonEndingALineAndCommentsDropped() {
        assertThat(OracleSchema.statements("-- a comment; with a semicolon\nCREATE TABLE A (\n  X NUMBER(1)\n);\n\n"
                + "INSERT INTO A (X) VALUES (1);\n")).containsExactly("CREATE TABLE A (\n  X NUMBER(1)\n)",
                "INSERT INTO A (X) VALUES (1)");
        // D-147: the twin of a change the other store needs alone says why in comments, and runs nothing.
        assertThat(OracleSchema.statements("-- PostgreSQL only: an index Oracle 11g cannot have; nothing to do here.\n"))
                .isEmpty();
        assertThatThrownBy(() -> OracleSchema.statements("CREATE TABLE A (X NUMBER(1))\n"))
                .hasMessageContaining("without ';'");
    }

    private List<String> columns() {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        return probe.strings("SELECT TABLE_NAME || '.' || COLUMN_NAME || ':' || DATA_TYPE AS V"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY 1");
    }

    private List<String> columnsOf(String table) {
        return probe.strings("SELECT COLUMN_NAME AS V FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC'"
                + " AND TABLE_NAME = ?", table);
    }
}
