package io.msgx.runner.schema;

import io.msgx.adapter.oracle.OracleTestDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The two stores' schemas, as their migrations leave them, hold the same tables (no list of them is kept by hand:
 * PostgreSQL, the reference store, is the list), with the differences the design names and no other.
 */
class StoreSchemasTest {

    /** Each store's own record of its migrations. */
    static final String PG_HISTORY = "FLYWAY_SCHEMA_HISTORY";
    static final String ORACLE_HISTORY = "MSGX_SCHEMA_VERSION";
    /** Oracle only (D-88): the runs of the self-test the distribution ships. */
    static final Set<String> ORACLE_ONLY = Set.of("SELF_TEST", "SELF_TEST_SEQ");

    @RegisterExtension
    final PgTestDatabase pg = new PgTestDatabase();
    @RegisterExtension
    final OracleTestDatabase oracle = new OracleTestDatabase();

    @Test
    void bothStoresHaveTheSameTables() throws SQLException {
        assumeFalse(oracle.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var pgTables = pgTables();
        pgTables.remove(PG_HISTORY);
        var oracleTables = oracleTables();
        oracleTables.remove(ORACLE_HISTORY);
        oracleTables.removeAll(ORACLE_ONLY);

        assertThat(pgTables).hasSizeGreaterThan(20);
        assertThat(oracleTables).as("Oracle's tables (the PostgreSQL migrations' are %s)", pgTables)
                .containsExactlyElementsOf(pgTables);
    }

    /**
     * The same columns, but Oracle's virtual columns: 11g has no partial index, so a unique index over a virtual column
     * that is NULL outside the rows it covers (e.g. {@code MSG_EVENT.SCHD_KEY}) stands for PostgreSQL's partial
     * unique index (D-111 and the outbox's one-row-per-key targets).
     */
    @Test
    void everyTableHasTheSameColumnsInBothStoresButOraclesVirtualOnes() throws SQLException {
        assumeFalse(oracle.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var pgColumns = upper(strings(pg.dataSource(), "SELECT table_name || '.' || column_name FROM"
                + " information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'flyway_schema_history'"));
        var oracleColumns = strings(oracle.dataSource(), "SELECT TABLE_NAME || '.' || COLUMN_NAME FROM"
                + " INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME NOT IN ('" + ORACLE_HISTORY
                + "', 'SELF_TEST') AND IS_GENERATED = 'NEVER'");
        assertThat(new TreeSet<>(oracleColumns)).containsExactlyElementsOf(new TreeSet<>(pgColumns));
    }

    @Test
    void oracleHasASequenceForEachOfPostgresqlsAndForEachIdentityColumn() throws SQLException {
        assumeFalse(oracle.isRealOracle(), "reads H2's INFORMATION_SCHEMA");
        var expected = new TreeSet<>(upper(strings(pg.dataSource(), "SELECT sequence_name FROM information_schema.sequences"
                + " WHERE sequence_schema = current_schema()")));
        // PostgreSQL's identity columns make sequences of their own; Oracle 11g has none: <TABLE>_SEQ.
        upper(strings(pg.dataSource(), "SELECT table_name FROM information_schema.columns WHERE table_schema ="
                + " current_schema() AND is_identity = 'YES'")).forEach(table -> expected.add(table + "_SEQ"));
        expected.add("SELF_TEST_SEQ");

        assertThat(new TreeSet<>(strings(oracle.dataSource(), "SELECT SEQUENCE_NAME FROM INFORMATION_SCHEMA.SEQUENCES"
                + " WHERE SEQUENCE_SCHEMA = 'PUBLIC'"))).containsExactlyElementsOf(expected);
    }

    private TreeSet<String> pgTables() throws SQLException {
        return new TreeSet<>(upper(strings(pg.dataSource(), "SELECT table_name FROM information_schema.tables"
                + " WHERE table_schema = current_schema()")));
    }

    private TreeSet<String> oracleTables() throws SQLException {
        return new TreeSet<>(strings(oracle.dataSource(), "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
                + " WHERE TABLE_SCHEMA = 'PUBLIC'"));
    }

    private static List<String> upper(List<String> names) {
        return names.stream().map(name -> name.toUpperCase(Locale.ROOT)).toList();
    }

    private static List<String> strings(DataSource dataSource, String sql) throws SQLException {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            var values = new ArrayList<String>();
            while (rows.next()) {
                values.add(rows.getString(1));
            }
            return values;
        }
    }
}
