package io.msgx.runner.selftest;

import java.util.Objects;

/**
 * One check of the Oracle self-test: a test method of a store contract suite, as JUnit ran it.
 *
 * @param suite   the suite's class, e.g. {@code OracleOutboxTest}
 * @param name    the check, e.g. {@code aDeadEventIsResentWithItsEventId()}
 * @param outcome how it ended
 * @param detail  why it failed or was skipped (the assertion's message or the skip's reason); empty when it passed
 */
public record CheckResult(String suite, String name, Outcome outcome, String detail) {

    /** How a check ended; an error of the check itself (not an assertion) counts as FAILED. */
    public enum Outcome { PASSED, FAILED, SKIPPED }

    public CheckResult {
        Objects.requireNonNull(suite, "suite");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        detail = detail == null ? "" : detail.strip();
    }

    /** {@code FAILED  aCheck() — expected ...}: the report's line (first line of the detail only). */
    public String line() {
        var first = detail.lines().findFirst().orElse("");
        return String.format("%-7s %s%s", outcome, name, first.isEmpty() ? "" : " — " + first);
    }
}
