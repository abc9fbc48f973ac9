package io.msgx.runner.selftest;

import org.w3c.dom.Element;
import org.xml.sax.SAXException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

/**
 * Every check of a self-test run, read from the XML reports JUnit's console launcher writes ({@code --reports-dir}:
 * one {@code TEST-<engine>.xml} per engine, in the Ant/Surefire {@code testsuite}/{@code testcase} format).
 */
public record SuiteReport(List<CheckResult> checks) {

    public SuiteReport {
        checks = List.copyOf(checks);
    }

    /**
     * The checks of every {@code TEST-*.xml} in {@code reportsDir}, in the order JUnit ran them.
     *
     * @throws IllegalStateException when the directory holds no report, or one that is not such XML
     */
    public static SuiteReport read(Path reportsDir) {
        List<Path> files;
        try (Stream<Path> listing = Files.list(reportsDir)) {
            files = listing.filter(file -> file.getFileName().toString().matches("TEST-.*\\.xml"))
                    .sorted(Comparator.comparing(Path::toString)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the self-test's reports in " + reportsDir, e);
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("the suites wrote no report in " + reportsDir + ": they did not run");
        }
        var checks = new ArrayList<CheckResult>();
        for (var file : files) {
            checks.addAll(checksOf(file));
        }
        return new SuiteReport(checks);
    }

    public long count(CheckResult.Outcome outcome) {
        return checks.stream().filter(check -> check.outcome() == outcome).count();
    }

    /** True when at least one check passed and none failed. */
    public boolean passed() {
        return count(CheckResult.Outcome.FAILED) == 0 && count(CheckResult.Outcome.PASSED) > 0;
    }

    /** {@code 328 passed, 0 failed, 3 skipped} */
    public String counts() {
        return count(CheckResult.Outcome.PASSED) + " passed, " + count(CheckResult.Outcome.FAILED) + " failed, "
                + count(CheckResult.Outcome.SKIPPED) + " skipped";
    }

    /** Every check, grouped by suite: the suite's name, then one indented line per check. */
    public List<String> lines() {
        var bySuite = new LinkedHashMap<String, List<CheckResult>>();
        for (var check : checks) {
            bySuite.computeIfAbsent(check.suite(), suite -> new ArrayList<>()).add(check);
        }
        var lines = new ArrayList<String>();
        for (Map.Entry<String, List<CheckResult>> suite : bySuite.entrySet()) {
            var failed = suite.getValue().stream().filter(c -> c.outcome() == CheckResult.Outcome.FAILED).count();
            lines.add(suite.getKey() + " (" + suite.getValue().size() + " checks" + (failed == 0 ? "" : ", " + failed
                    + " failed") + ")");
            suite.getValue().forEach(check -> lines.add("  " + check.line()));
        }
        return lines;
    }

    private static List<CheckResult> checksOf(Path file) {
        try {
            var factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            var document = factory.newDocumentBuilder().parse(file.toFile());
            var cases = document.getElementsByTagName("testcase");
            var checks = new ArrayList<CheckResult>();
            for (int i = 0; i < cases.getLength(); i++) {
                checks.add(check((Element) cases.item(i)));
            }
            return checks;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the self-test's report " + file, e);
        } catch (ParserConfigurationException | SAXException e) {
            throw new IllegalStateException("the self-test's report " + file + " is not JUnit's XML: " + e.getMessage(),
                    e);
        }
    }

    private static CheckResult check(Element testcase) {
        var className = testcase.getAttribute("classname");
        var suite = className.substring(className.lastIndexOf('.') + 1);
        var name = testcase.getAttribute("name");
        for (var tag : List.of("failure", "error")) {
            var problem = first(testcase, tag);
            if (problem != null) {
                var message = problem.getAttribute("message");
                var detail = message.isBlank() ? problem.getAttribute("type") : message;
                return new CheckResult(suite, name, CheckResult.Outcome.FAILED, detail);
            }
        }
        var skipped = first(testcase, "skipped");
        if (skipped != null) {
            var reason = skipped.getAttribute("message");
            return new CheckResult(suite, name, CheckResult.Outcome.SKIPPED,
                    reason.isBlank() ? skipReason(skipped.getTextContent()) : reason);
        }
        return new CheckResult(suite, name, CheckResult.Outcome.PASSED, "");
    }

    /**
     * The reason of a skip from the text JUnit writes for it (the aborting exception's stack trace): its first line,
     * without the exception's class and the "Assumption failed" prefix.
     */
    static String skipReason(String text) {
        var first = text.strip().lines().findFirst().orElse("");
        for (var prefix : List.of("org.opentest4j.TestAbortedException: ", "Assumption failed: ")) {
            if (first.startsWith(prefix)) {
                first = first.substring(prefix.length());
            }
        }
        return first;
    }

    private static Element first(Element parent, String tag) {
        var children = parent.getElementsByTagName(tag);
        return children.getLength() == 0 ? null : (Element) children.item(0);
    }
}
