package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.FlightTables;
import io.msgx.adapter.jdbc.VersionedScripts;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The Flyway migration builds the schema the design names, seeds its single rows, and is a no-op when repeated. */
class PgMigrationTest {

    private static final String FOLDER = PgSchema.LOCATION.substring("classpath:".length());

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Test
    void migratingAnUpToDateSchemaChangesNothing() throws SQLException {
        var before = columnsOfSchema();

        assertThat(PgSchema.migrate(database.dataSource(), database.schema())).isZero();

        assertThat(columnsOfSchema()).isEqualTo(before);
        // Every script of the folder, in the order of the numbers (as text, V10 would come before V2).
        assertThat(strings("SELECT version || ':' || script FROM flyway_schema_history WHERE success AND version IS NOT NULL"
                + " ORDER BY installed_rank")).containsExactlyElementsOf(scripts().stream()
                        .map(script -> script.version() + ":" + script.name()).toList())
                .startsWith("1:V1__pipeline_schema.sql").contains("17:V17__operator_audit.sql");
    }

    @Test
    void theFolderHoldsVersionedScriptsOnly() {
        var names = VersionedScripts.list(PgSchema.class.getClassLoader(), FOLDER, "V1__pipeline_schema.sql");
        assertThat(names).allSatisfy(name -> assertThat(name).startsWith("V"));
        assertThat(scripts()).extracting(VersionedScripts.Script::version).isSorted().doesNotHaveDuplicates();
    }

    /**
     * The tables and sequences are compared with the Oracle store's in app-runner ({@code StoreSchemasTest}: the same
     * tables, no list kept by hand); here, what the code names: the flights' tables and the outbox's sequence.
     */
    @Test
    void theTablesTheCodeNamesExist() throws SQLException {
        var tables = strings("SELECT upper(table_name) FROM information_schema.tables WHERE table_schema = current_schema()");
        assertThat(tables).contains("FLIGHT_SCHD", "PROC_STATE", "MSG_EVENT")
                .containsAll(FlightTables.ALL.stream().map(FlightTables::table).toList());
        assertThat(strings("SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema()"))
                .contains("msg_event_seq");
    }

    /** This build's scripts, as Flyway finds them on the class path. */
    private static List<VersionedScripts.Script> scripts() {
        return VersionedScripts.inOrder(VersionedScripts.list(PgSchema.class.getClassLoader(), FOLDER,
                "V1__pipeline_schema.sql"));
    }

    @Test
    void theCursorStartsAtZeroNeverSeededAndTheLockRowExists() throws SQLException {
        assertThat(strings("SELECT id || ':' || w || ':' || coalesce(hole_since::text, '-') || ':'"
                + " || coalesce(seeded_at::text, '-') FROM inbox_cursor")).containsExactly("1:0:-:-");
        assertThat(strings("SELECT name FROM pipeline_lock")).containsExactly("PIPELINE");
    }

    @Test
    void theMainRowHasOneColumnPerFlightField() throws SQLException {
        var columns = columnsOf("flight_schd");
        for (var field : FlightField.values()) {
            assertThat(columns).as("FLIGHT_SCHD." + field).contains(field.code().toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void everyDetailTableHasOneColumnPerItemField() throws SQLException {
        for (var list : FlightList.values()) {
            var table = list.group() == FlightList.Group.ROUTE ? "flight_route_point" : "flight_" + list.code().toLowerCase(Locale.ROOT);
            var expected = new ArrayList<>(List.of("flid", "ordinal", "source_seq"));
            list.itemFields().forEach(code -> expected.add(code.toLowerCase(Locale.ROOT)));
            assertThat(columnsOf(table)).as(table).containsAll(expected);
        }
    }

    @Test
    void theQueueHeadTheBackfillScanAndTheProjectionUseTheirPartialIndexes() throws SQLException {
        var indexes = strings("SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()");
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_proc_state_open").contains("WHERE"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_proc_state_backfill")
                .contains("(backfill_attempts, msg_id)").contains("backfill_at IS NULL"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ux_msg_event_schd")
                .contains("UNIQUE").contains("'KAFKA:schd'"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ux_req_track_open").contains("UNIQUE"));
    }

    @Test
    void theDeliveryClaimUsesItsPartialIndexes() throws SQLException {
        var indexes = strings("SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()");
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_msg_event_msg_retrying")
                .contains("(partition_key)").contains("'PENDING'").contains("'KAFKA:msg'")
                .contains("next_attempt_at IS NOT NULL"));
        assertThat(indexes).noneSatisfy(i -> assertThat(i).startsWith("ix_msg_event_msg_head"));
    }

    @Test
    void aConfirmedDeliveryWritesNoIndexEntryButThePrimaryKeysAndTheProjectionsKey() throws SQLException {
        // D-49: a confirmation (PENDING -> SENT) writes a new row version, and an entry in every index whose predicate
        // the SENT row meets. Every other index of MSG_EVENT holds undelivered rows only; the keys of the one-row-per-key
        // targets (KAFKA:schd by FLID, KAFKA:ref by RTYPE:RKEY, D-60) hold every row of their target.
        var others = strings("SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()"
                + " AND tablename = 'msg_event' AND indexname NOT IN ('pk_msg_event', 'ux_msg_event_schd',"
                + " 'ux_msg_event_ref')");
        assertThat(others).isNotEmpty().allSatisfy(i -> assertThat(i).contains("'PENDING'").doesNotContain("'SENT'"));
        assertThat(others).noneSatisfy(i -> assertThat(i).startsWith("ix_msg_event_sent"));
    }

    @Test
    void theLifecycleScansUseTheirIndexes() throws SQLException {
        var indexes = strings("SELECT indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()");
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_proc_state_archive")
                .contains("(updated_at, msg_id)").contains("'SUCCEEDED'").doesNotContain("'ARCHIVED'"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_proc_state_shadow")
                .contains("(updated_at, msg_id)").contains("'ARCHIVED'"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_proc_state_abandoned")
                .contains("backfill_abandoned_at IS NOT NULL"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_flight_schd_history")
                .contains("(operation_day)"));
        assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith("ix_flight_schd_unplaced")
                .contains("operation_day IS NULL"));
        // D-52: every update of a flight changes UPDATED_AT; an index holding it would make every update write an
        // entry into every index of the table.
        assertThat(indexes).filteredOn(i -> i.contains(".flight_schd USING"))
                .isNotEmpty().noneSatisfy(i -> assertThat(i).contains("updated_at"));
        assertThat(strings("SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = 'flight_schd'::regclass"))
                .containsExactly("fillfactor=80");
        assertThat(indexes).noneSatisfy(i -> assertThat(i).startsWith("ix_flight_schd_operation_day"));
        for (var index : List.of("ix_proc_state_hst_archived_at", "ix_flight_hst_archived_at", "ix_req_track_closed",
                "ix_raw_msg_copy_kept_at")) {
            assertThat(indexes).anySatisfy(i -> assertThat(i).startsWith(index));
        }
        assertThat(columnsOf("proc_state_hst")).contains("reconciled_at", "reconciled_by", "reconciliation_note");
        // D-104: when the transient failures of an owed mark began, kept in the history with the other columns.
        assertThat(columnsOf("proc_state")).contains("backfill_failing_since");
        assertThat(columnsOf("proc_state_hst")).contains("backfill_failing_since");
    }

    private List<String> columnsOfSchema() throws SQLException {
        return strings("SELECT table_name || '.' || column_name || ':' || data_type FROM information_schema.columns"
                + " WHERE table_schema = current_schema() ORDER BY 1");
    }

    private List<String> columnsOf(String table) throws SQLException {
        return strings("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
                + " AND table_name = '" + table + "'");
    }

    private List<String> strings(String sql) throws SQLException {
        try (Connection connection = database.dataSource().getConnection();
             var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            var values = new ArrayList<String>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values;
        }
    }
}
