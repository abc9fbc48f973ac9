package io.msgx.runner.schema;

import io.msgx.adapter.jdbc.VersionedScripts;
import io.msgx.adapter.jdbc.VersionedScripts.Script;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * D-147's rule over the listings of the two migration folders: from {@link #FIRST_SHARED} on, every version is a pair
 * of twin scripts (the same version and description in both folders); below it, each folder holds its past stream
 * unchanged (PostgreSQL V1..V17, Oracle V1..V14, numbered apart; the docs map them).
 */
final class TwinMigrations {

    /** The first version both stores share (PostgreSQL's next free one when the rule was made). */
    static final int FIRST_SHARED = 18;
    /** The last version of each store's separate numbering: frozen, never added to nor renamed. */
    static final int LAST_SEPARATE_PG = 17;
    static final int LAST_SEPARATE_ORACLE = 14;

    static final String PG_FOLDER = "adapters-pg/src/main/resources/db/migration/pg";
    static final String ORACLE_FOLDER = "adapters-oracle/src/main/resources/db/oracle";

    private TwinMigrations() {
    }

    /** What breaks the rule in the two folders' file names, each problem saying what to do; empty when none. */
    static List<String> problems(List<String> pgNames, List<String> oracleNames) {
        var problems = new ArrayList<String>();
        var pg = scripts("PostgreSQL", PG_FOLDER, pgNames, LAST_SEPARATE_PG, problems);
        var oracle = scripts("Oracle", ORACLE_FOLDER, oracleNames, LAST_SEPARATE_ORACLE, problems);
        if (pg == null || oracle == null) {
            return problems;
        }
        var pgShared = shared(pg);
        var oracleShared = shared(oracle);
        var versions = new java.util.TreeSet<>(pgShared.keySet());
        versions.addAll(oracleShared.keySet());
        for (int version : versions) {
            var mine = pgShared.get(version);
            var theirs = oracleShared.get(version);
            if (theirs == null) {
                problems.add(mine.name() + " is in the PostgreSQL folder only: add its twin " + mine.name() + " to "
                        + ORACLE_FOLDER + " (D-147: from V" + FIRST_SHARED + " on, one change is two scripts of the"
                        + " same version and description)");
            } else if (mine == null) {
                problems.add(theirs.name() + " is in the Oracle folder only: add its twin " + theirs.name() + " to "
                        + PG_FOLDER + " (D-147: from V" + FIRST_SHARED + " on, one change is two scripts of the"
                        + " same version and description)");
            } else if (!mine.description().equals(theirs.description())) {
                problems.add("version " + version + " is " + mine.name() + " on PostgreSQL but " + theirs.name()
                        + " on Oracle: twin scripts have the same description (D-147); rename the one not yet applied"
                        + " anywhere");
            }
        }
        return problems;
    }

    /**
     * The scripts of one folder in numeric order, or null (with the problem) when a name is malformed or a version
     * taken twice; a version under {@link #FIRST_SHARED} beyond the folder's frozen past is a problem too.
     */
    private static List<Script> scripts(String store, String folder, List<String> names, int lastSeparate,
                                        List<String> problems) {
        List<Script> scripts;
        try {
            scripts = VersionedScripts.inOrder(names);
        } catch (IllegalArgumentException e) {
            problems.add(store + " (" + folder + "): " + e.getMessage());
            return null;
        }
        var past = scripts.stream().map(Script::version).filter(v -> v < FIRST_SHARED).toList();
        var expected = IntStream.rangeClosed(1, lastSeparate).boxed().toList();
        if (!past.equals(expected)) {
            var added = past.stream().filter(v -> !expected.contains(v)).map(v -> "V" + v).toList();
            var gone = expected.stream().filter(v -> !past.contains(v)).map(v -> "V" + v).toList();
            problems.add(store + " (" + folder + "): the versions below " + FIRST_SHARED + " are its past stream, V1 to V"
                    + lastSeparate + ", applied in stores already"
                    + (added.isEmpty() ? "" : "; added under it: " + added + " (give a new script the next free"
                    + " version of both stores, D-147)")
                    + (gone.isEmpty() ? "" : "; missing: " + gone + " (never delete nor renumber an applied script)"));
        }
        return scripts;
    }

    private static Map<Integer, Script> shared(List<Script> scripts) {
        return scripts.stream().filter(script -> script.version() >= FIRST_SHARED)
                .collect(Collectors.toMap(Script::version, Function.identity(), (a, b) -> a, TreeMap::new));
    }
}
