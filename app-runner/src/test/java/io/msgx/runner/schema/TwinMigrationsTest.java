package io.msgx.runner.schema;

import io.msgx.adapter.jdbc.VersionedScripts;
import io.msgx.adapter.oracle.OracleSchema;
import io.msgx.adapter.pg.PgSchema;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D-147: one migration numbering for both stores from V18 on. The two folders as the build packs them (the class path
 * this module sees: adapters-pg's and adapters-oracle's), then the rule's own check on made-up listings, so that a
 * script added to one folder only fails here, naming its missing twin.
 */
class TwinMigrationsTest {

    @Test
    void theTwoFoldersKeepOneNumberingFromV18On() {
        assertThat(TwinMigrations.problems(pgFolder(), oracleFolder())).isEmpty();
    }

    @Test
    void eachFolderHasUniqueVersionsInIncreasingNumericOrder() {
        for (var folder : List.of(pgFolder(), oracleFolder())) {
            var versions = VersionedScripts.inOrder(folder).stream().map(VersionedScripts.Script::version).toList();
            assertThat(versions).isNotEmpty().isSorted().doesNotHaveDuplicates().startsWith(1);
        }
        // The Oracle runner applies the same list, in the same order (it derives it from the same folder).
        assertThat(OracleSchema.versions()).containsExactlyElementsOf(VersionedScripts.inOrder(oracleFolder()).stream()
                .map(VersionedScripts.Script::version).toList());
    }

    @Test
    void theRuleHoldsVacuouslyWithoutAnySharedVersionYet() {
        assertThat(TwinMigrations.problems(past("pg", 17), past("oracle", 14))).isEmpty();
    }

    @Test
    void aTwinPairPassesAndSkipsOraclesNumbers15To17() {
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V18__flight_gate_width.sql", "V19__x.sql"),
                with(past("oracle", 14), "V18__flight_gate_width.sql", "V19__x.sql"))).isEmpty();
    }

    @Test
    void aScriptInOneFolderOnlyIsNamedWithTheFolderOfItsMissingTwin() {
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V18__flight_gate_width.sql"), past("oracle", 14)))
                .singleElement().asString().contains("V18__flight_gate_width.sql is in the PostgreSQL folder only")
                .contains("add its twin V18__flight_gate_width.sql to " + TwinMigrations.ORACLE_FOLDER);
        assertThat(TwinMigrations.problems(past("pg", 17), with(past("oracle", 14), "V18__flight_gate_width.sql")))
                .singleElement().asString().contains("in the Oracle folder only")
                .contains("to " + TwinMigrations.PG_FOLDER);
    }

    @Test
    void twinsWithDifferentDescriptionsAreRefused() {
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V18__flight_gate_width.sql"),
                with(past("oracle", 14), "V18__gate_width.sql"))).singleElement().asString()
                .contains("version 18 is V18__flight_gate_width.sql on PostgreSQL but V18__gate_width.sql on Oracle");
    }

    @Test
    void aNewScriptUnderV18OrATakenVersionOrAMalformedNameIsRefused() {
        // The old habit: Oracle's next free number of its own stream.
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V18__a.sql"), with(past("oracle", 14), "V15__a.sql")))
                .anySatisfy(p -> assertThat(p).contains("Oracle").contains("added under it: [V15]"))
                .anySatisfy(p -> assertThat(p).contains("V18__a.sql is in the PostgreSQL folder only"));
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V17__again.sql"), past("oracle", 14)))
                .singleElement().asString().contains("two scripts have version 17");
        assertThat(TwinMigrations.problems(with(past("pg", 17), "V018__a.sql"), past("oracle", 14)))
                .singleElement().asString().contains("'V018__a.sql' is not a versioned script's name");
        assertThat(TwinMigrations.problems(past("pg", 16), past("oracle", 14)))
                .singleElement().asString().contains("missing: [V17]");
    }

    @Test
    void versionsAreComparedAsNumbersNotAsText() {
        // As text, V10 sorts before V2 and V100 before V18.
        assertThat(VersionedScripts.inOrder(List.of("V10__c.sql", "V2__b.sql", "V100__d.sql", "V1__a.sql", "V18__e.sql")))
                .extracting(VersionedScripts.Script::version).containsExactly(1, 2, 10, 18, 100);
    }

    private static List<String> pgFolder() {
        return VersionedScripts.list(PgSchema.class.getClassLoader(),
                PgSchema.LOCATION.substring("classpath:".length()), "V1__pipeline_schema.sql");
    }

    private static List<String> oracleFolder() {
        return VersionedScripts.list(OracleSchema.class.getClassLoader(), OracleSchema.LOCATION, "schema_version.sql");
    }

    /** A made-up listing of a folder's past stream V1..V{last} (names shuffled as a directory may list them). */
    private static List<String> past(String store, int last) {
        var names = new ArrayList<>(IntStream.rangeClosed(1, last).mapToObj(v -> "V" + v + "__" + store + "_" + v + ".sql")
                .toList());
        java.util.Collections.reverse(names);
        if (store.equals("oracle")) {
            names.add("schema_version.sql");
        }
        return names;
    }

    private static List<String> with(List<String> names, String... more) {
        return Stream.concat(names.stream(), Stream.of(more)).toList();
    }
}
