package io.msgx.runner.selftest;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the store contract suites of adapters-oracle in a JVM of their own, with JUnit's console launcher (D-88).
 *
 * <p>The suites are test code: they and JUnit travel in the distribution's {@code lib/oracle-selftest/} folder, never
 * in the runner's jar. The child's class path is the runner's jar (the store, the driver, the pool) followed by those
 * jars. It selects the {@code *Test} classes of {@code io.msgx.adapter.oracle} but the Testcontainers smoke test
 * (which needs Docker and brings its own Oracle); their schema is the one {@code MSGX_TEST_ORACLE_URL},
 * {@code MSGX_TEST_ORACLE_USER} and {@code MSGX_TEST_ORACLE_PASSWORD} name in the child's environment (the
 * password never on a command line), or a new in-memory H2 per check when they are absent (the default build's
 * stand-in).
 */
public final class SuiteLauncher {

    /** Where the distribution keeps the suites, beside the runner's jar. */
    public static final String SUITES_FOLDER = "oracle-selftest";
    static final String CONSOLE_LAUNCHER = "org.junit.platform.console.ConsoleLauncher";
    static final String SUITES = "^io\\.msgx\\.adapter\\.oracle\\.[A-Za-z0-9]+Test$";
    static final String NOT_RUN = ".*XeContainerTest$";

    private final Path java;
    private final List<Path> classPath;
    /** The jar of adapters-oracle's tests: the only one scanned for suites. */
    private final Path suitesJar;

    private SuiteLauncher(Path java, List<Path> classPath, Path suitesJar) {
        this.java = java;
        this.classPath = List.copyOf(classPath);
        this.suitesJar = suitesJar;
    }

    /**
     * The suites installed beside the running jar ({@code lib/msgexchange.jar} and {@code lib/oracle-selftest/*.jar}),
     * or in {@code suitesDir} when given.
     *
     * @throws IllegalStateException when the runner does not run from a jar, or no suites are there
     */
    public static SuiteLauncher installed(Path suitesDir) {
        var runnerJar = runnerJar();
        var folder = suitesDir != null ? suitesDir : runnerJar.resolveSibling(SUITES_FOLDER);
        List<Path> jars;
        try (Stream<Path> listing = Files.isDirectory(folder) ? Files.list(folder) : Stream.empty()) {
            jars = listing.filter(file -> file.getFileName().toString().endsWith(".jar"))
                    .sorted(Comparator.comparing(Path::toString)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the self-test's suites in " + folder, e);
        }
        var suitesJar = jars.stream().filter(jar -> jar.getFileName().toString().startsWith("adapters-oracle"))
                .findFirst().orElseThrow(() -> new IllegalStateException("the Oracle self-test's suites are not in "
                        + folder + ": run it from the distribution archive (bin/msgexchange oracle-selftest), whose lib/"
                        + SUITES_FOLDER + "/ holds them"));
        var classPath = new ArrayList<Path>();
        classPath.add(runnerJar);
        classPath.addAll(jars);
        return new SuiteLauncher(Path.of(System.getProperty("java.home"), "bin", "java"), classPath, suitesJar);
    }

    /** The jars the child runs on, the runner's first. */
    public List<Path> classPath() {
        return classPath;
    }

    /**
     * Run every suite with {@code environment} added to the child's, writing JUnit's reports to {@code workDir/reports}
     * and the child's output to {@code workDir/suites.log}; wait at most {@code timeout}.
     *
     * @throws IllegalStateException when the child does not end in time (it is killed) or wrote no report
     */
    public SuiteReport run(Map<String, String> environment, Path workDir, Duration timeout) {
        var reports = workDir.resolve("reports");
        var log = workDir.resolve("suites.log");
        try {
            Files.createDirectories(reports);
            var builder = new ProcessBuilder(command(reports)).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("MSGX_"));
            builder.environment().putAll(environment);
            var child = builder.start();
            if (!child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                child.destroyForcibly().waitFor();
                throw new IllegalStateException("the suites did not finish within " + timeout.toMinutes()
                        + " min and were stopped; their output is in " + log);
            }
            try {
                return SuiteReport.read(reports);
            } catch (IllegalStateException e) {
                throw new IllegalStateException(e.getMessage() + " (exit code " + child.exitValue() + "; output in "
                        + log + ")", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the self-test's suites with " + java, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the suites ran", e);
        }
    }

    /** The child's command line: no secret in it (the logon travels in the environment). */
    List<String> command(Path reports) {
        var joined = String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList());
        return List.of(java.toString(), "-Xmx512m", "-XX:+UseSerialGC", "-cp", joined, CONSOLE_LAUNCHER, "execute",
                "--disable-banner", "--disable-ansi-colors", "--details=tree",
                "--scan-classpath=" + suitesJar, "--include-classname=" + SUITES, "--exclude-classname=" + NOT_RUN,
                "--reports-dir=" + reports);
    }

    private static Path runnerJar() {
        try {
            var location = Path.of(SuiteLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!location.getFileName().toString().endsWith(".jar")) {
                throw new IllegalStateException("the Oracle self-test runs from the runner's jar (bin/msgexchange "
                        + "oracle-selftest in the distribution), not from " + location);
            }
            return location;
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot tell where the runner's jar is", e);
        }
    }
}
