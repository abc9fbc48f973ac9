package io.msgx.runner.selftest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The self-test's report is read from JUnit's XML (D-88): a failure, an error and a skip each keep their reason, the
 * checks are grouped by suite, and a run passes only when a check passed and none failed.
 */
class SuiteReportTest {

    @TempDir
    Path reports;

    @Test
    void everyCheckKeepsItsOutcomeAndReasonGroupedBySuite() throws Exception {
        Files.writeString(reports.resolve("TEST-junit-jupiter.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="JUnit Jupiter" tests="4" skipped="1" failures="1" errors="1">
                  <testcase name="aRowIsKept()" classname="io.msgx.adapter.oracle.OracleOutboxTest" time="0.1"/>
                  <testcase name="aRowIsSent()" classname="io.msgx.adapter.oracle.OracleOutboxTest" time="0.1">
                    <failure message="expected: 2 but was: 1" type="org.opentest4j.AssertionFailedError">trace</failure>
                  </testcase>
                  <testcase name="aLockWaits()" classname="io.msgx.adapter.oracle.OracleTransactionTest" time="0.1">
                    <error message="ORA-00942: table or view does not exist" type="java.sql.SQLException">trace</error>
                  </testcase>
                  <testcase name="readsH2()" classname="io.msgx.adapter.oracle.OracleSchemaTest" time="0.0">
                    <skipped><![CDATA[org.opentest4j.TestAbortedException: Assumption failed: reads H2's catalogue
                    at io.msgx.adapter.oracle.OracleSchemaTest.readsH2(OracleSchemaTest.java:12)]]></skipped>
                  </testcase>
                </testsuite>
                """);
        Files.writeString(reports.resolve("TEST-junit-vintage.xml"), """
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="JUnit Vintage" tests="0" skipped="0" failures="0" errors="0"/>
                """);

        var report = SuiteReport.read(reports);

        assertThat(report.counts()).isEqualTo("1 passed, 2 failed, 1 skipped");
        assertThat(report.passed()).isFalse();
        assertThat(report.lines()).containsExactly(
                "OracleOutboxTest (2 checks, 1 failed)",
                "  PASSED  aRowIsKept()",
                "  FAILED  aRowIsSent() — expected: 2 but was: 1",
                "OracleTransactionTest (1 checks, 1 failed)",
                "  FAILED  aLockWaits() — ORA-00942: table or view does not exist",
                "OracleSchemaTest (1 checks)",
                "  SKIPPED readsH2() — reads H2's catalogue");
    }

    @Test
    void aRunPassesWhenSomeCheckPassedAndNoneFailedSkipsAllowed() {
        var passed = new CheckResult("S", "a()", CheckResult.Outcome.PASSED, "");
        var skipped = new CheckResult("S", "b()", CheckResult.Outcome.SKIPPED, "no Docker");

        assertThat(new SuiteReport(java.util.List.of(passed, skipped)).passed()).isTrue();
        assertThat(new SuiteReport(java.util.List.of(skipped)).passed()).as("nothing ran").isFalse();
        assertThat(new SuiteReport(java.util.List.of()).passed()).isFalse();
    }

    @Test
    void aFolderWithoutReportsMeansTheSuitesDidNotRun() {
        assertThatThrownBy(() -> SuiteReport.read(reports)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the suites wrote no report in " + reports);
    }
}
