package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.FlightTables;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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

    private static final List<String> TABLES = List.of(
            "PROC_STATE", "PROC_STATE_HST", "MSG_EVENT", "REQ_TRACK", "REF_MASTER", "INBOX_CURSOR", "PIPELINE_LOCK",
            "SCHD_SNAP_LOG", "FLIGHT_SCHD", "FLIGHT_GTDT", "FLIGHT_CKDT", "FLIGHT_CLDT", "FLIGHT_PSDT", "FLIGHT_CHDT",
            "FLIGHT_DELY", "FLIGHT_ABTM", "FLIGHT_CHOT", "FLIGHT_ROUTE_POINT", "FLIGHT_SRVT", "FLIGHT_VIPF",
            "FLIGHT_PSHT", "FLIGHT_TIPT", "FLIGHT_EXTENSIONS", "FLIGHT_HST", "FLIGHT_HST_FORGOTTEN", "LEADER_LEASE", "BACKFILL_RECONCILIATION", "RAW_MSG_COPY",
            "OPERATOR_AUDIT", "MSGX_SCHEMA_VERSION",
            // Oracle only (D-88): the runs of the self-test the distribution ships.
            "SELF_TEST");

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);

    /** A real Oracle schema is shared by the tests: put back the rows a test tampered with. */
    @AfterEach
    void restoreVersionRows() {
        if (database.isRealOracle()) {
            probe.sql(session -> {
                session.update("DELETE FROM MSGX_SCHEMA_VERSION");
                for (int version = 1; version <= OracleSchema.CURRENT_VERSION; version++) {
                    var script = OracleSchema.SCRIPTS.get(version - 1);
                    session.update("INSERT INTO MSGX_SCHEMA_VERSION (VERSION, DESCRIPTION, SCRIPT, CHECKSUM,"
                                    + " INSTALLED_AT) VALUES (?, ?, ?, ?, ?)", version, script, script,
                            OracleSchema.checksum(OracleSchema.read(script)), java.time.Instant.EPOCH);
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
                .containsExactly("1:V1__pipeline_schema.sql", "2:V2__delivery_indexes.sql", "3:V3__lifecycle.sql",
                        "4:V4__request_track.sql", "5:V5__dispatch_retrying_index.sql",
                        "6:V6__sis_contract_v2_flight.sql", "7:V7__reference_outbox.sql", "8:V8__self_test.sql",
                        "9:V9__flight_version_floor.sql", "10:V10__backfill_failing_since.sql", "11:V11__leader_lease.sql",
                        "12:V12__request_seqn_cycles.sql", "13:V13__sis_contract_v3_flight.sql",
                        "14:V14__operator_audit.sql");
        assertThat(OracleSchema.versionOf(database.dataSource())).isEqualTo(OracleSchema.CURRENT_VERSION);
        OracleSchema.requireCurrent(database.dataSource());
    }

    @Test
    void aSchemaBehindThisBuildIsRefusedNamingBothVersions() {
        probe.sql(session -> session.update("DELETE FROM MSGX_SCHEMA_VERSION WHERE VERSION = ?", OracleSchema.CURRENT_VERSION));

        assertThatThrownBy(() -> OracleSchema.requireCurrent(database.dataSource()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("at version " + (OracleSchema.CURRENT_VERSION - 1))
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

    @Test
    void everyTableOfTheDesignExistsWithItsSequences() {
        assumeFalse(database.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        assertThat(probe.strings("SELECT TABLE_NAME AS V FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'PUBLIC'"))
                .containsExactlyInAnyOrderElementsOf(TABLES);
        assertThat(probe.strings("SELECT SEQUENCE_NAME AS V FROM INFORMATION_SCHEMA.SEQUENCES WHERE SEQUENCE_SCHEMA = 'PUBLIC'"))
                .containsExactlyInAnyOrder("MSG_EVENT_SEQ", "REQ_TRACK_SEQ", "SCHD_SNAP_LOG_SEQ", "SELF_TEST_SEQ",
                        "OPERATOR_AUDIT_SEQ");
        // D-104: when the transient failures of an owed mark began, kept in the history with the other columns.
        assertThat(columnsOf("PROC_STATE")).contains("BACKFILL_FAILING_SINCE");
        assertThat(columnsOf("PROC_STATE_HST")).contains("BACKFILL_FAILING_SINCE");
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
            for (var statement : OracleSchema.statements(OracleSchema.read(script))) {
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
            // By version number: as text, V10 would sort before V1.
            assertThat(files.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("V"))
                    .sorted(Comparator.comparingInt(OracleSchemaTest::versionOf)))
                    .containsExactlyElementsOf(OracleSchema.SCRIPTS);
        }
        for (int i = 0; i < OracleSchema.SCRIPTS.size(); i++) {
            assertThat(OracleSchema.SCRIPTS.get(i)).startsWith("V" + (i + 1) + "__");
        }
    }

    @Test
    void statementsAreSplitAtASemicolonEndingALineAndCommentsDropped() {
        assertThat(OracleSchema.statements("-- a comment; with a semicolon\nCREATE TABLE A (\n  X NUMBER(1)\n);\n\n"
                + "INSERT INTO A (X) VALUES (1);\n")).containsExactly("CREATE TABLE A (\n  X NUMBER(1)\n)",
                "INSERT INTO A (X) VALUES (1)");
        assertThatThrownBy(() -> OracleSchema.statements("CREATE TABLE A (X NUMBER(1))\n"))
                .hasMessageContaining("without ';'");
    }

    /** The version of a script {@code V<n>__*.sql}. */
    private static int versionOf(String script) {
        return Integer.parseInt(script.substring(1, script.indexOf("__")));
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
