package io.msgx.adapter.oracle;

import java.time.Instant;
import java.util.Objects;

/**
 * One run of the Oracle self-test (D-88): the store contract suites of a build, run against a scratch schema on the
 * store's database server, as {@code SELF_TEST} records it.
 *
 * @param buildVersion  the runner's version that ran the checks
 * @param buildCommit   the commit it was built from ({@code unknown} when the build was not told)
 * @param database      the server the checks ran on, as it names itself (Oracle's banner)
 * @param target        where the checks' tables lived: the scratch user's name, or the H2 stand-in
 * @param startedAt     when the first check started
 * @param finishedAt    when the last check ended
 * @param checksPassed  checks that passed
 * @param checksFailed  checks that failed or broke
 * @param checksSkipped checks skipped (each with its reason in the report)
 * @param ranBy         who ran it (the operating-system user, or {@code --operator})
 * @param report        every check with its outcome, as the command printed it
 */
public record SelfTestRun(String buildVersion, String buildCommit, String database, String target, Instant startedAt,
                          Instant finishedAt, int checksPassed, int checksFailed, int checksSkipped, String ranBy,
                          String report) {

    /** The commit of a build that was not told its commit. */
    public static final String UNKNOWN_COMMIT = "unknown";

    public SelfTestRun {
        Objects.requireNonNull(buildVersion, "buildVersion");
        Objects.requireNonNull(buildCommit, "buildCommit");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(finishedAt, "finishedAt");
        Objects.requireNonNull(ranBy, "ranBy");
        if (checksPassed < 0 || checksFailed < 0 || checksSkipped < 0) {
            throw new IllegalArgumentException("negative check counts: " + checksPassed + " passed, " + checksFailed
                    + " failed, " + checksSkipped + " skipped");
        }
    }

    /** True when at least one check ran and none failed: skipped checks do not fail a run. */
    public boolean passed() {
        return checksFailed == 0 && checksPassed > 0;
    }

    /** True when this run is of the build {@code version} built from {@code commit}. */
    public boolean isOf(String version, String commit) {
        return buildVersion.equals(version) && buildCommit.equals(commit);
    }

    /** {@code 0.1.0 (commit 1a2b3c4)}, or the version alone when the commit is not known. */
    public String build() {
        return build(buildVersion, buildCommit);
    }

    /** The build {@code version}/{@code commit} as {@link #build()} writes it. */
    public static String build(String version, String commit) {
        return UNKNOWN_COMMIT.equals(commit) ? version : version + " (commit " + commit + ")";
    }
}
