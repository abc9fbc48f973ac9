package io.msgx.runner;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.msgx.pipeline.audit.Actor;
import io.msgx.runner.config.Keys;
import io.msgx.runner.operations.OperatorActions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One change, several places: these checks say when one of them was forgotten (issue 37, point 3).
 * <ul>
 *   <li>every store contract suite runs on both stores;</li>
 *   <li>the CLI and the console offer the same operator actions, but for the differences named here with why;</li>
 *   <li>docs/reference.md lists every configuration key;</li>
 *   <li>every shipped alert has a promtool case;</li>
 *   <li>no main class is over {@value #MAX_CLASS_LINES} lines (issue 37, point 1): a class grown past it is split
 *       along its seams, each part named for what it is.</li>
 * </ul>
 */
class HouseRulesTest {

    private static final Path ROOT = Path.of("..");
    static final int MAX_CLASS_LINES = 500;

    /** Operator actions one side offers on purpose, and why. */
    private static final Map<String, String> CLI_ONLY = Map.of(
            "skip", "ends a message for good with a typed reason: a deliberate command, not a click",
            "requestSchedule", "talks to the AODB; the daily job does it, and by hand the CLI",
            "requestReference", "talks to the AODB; by hand the CLI");
    private static final Map<String, String> CONSOLE_ONLY = Map.of();

    @Test
    void every_store_contract_suite_runs_on_postgresql_and_on_oracle() throws IOException {
        var contracts = new TreeSet<String>();
        for (var folder : new String[] {"pipeline-core/src/test/java/io/msgx/pipeline/store",
                "adapters-jdbc/src/test/java/io/msgx/adapter/jdbc"}) {
            try (var files = Files.list(ROOT.resolve(folder))) {
                files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith("Contract.java"))
                        .map(n -> n.substring(0, n.length() - ".java".length())).forEach(contracts::add);
            }
        }
        assertThat(contracts).as("the store contracts found").hasSizeGreaterThan(15);
        var pipelineCore = sources("pipeline-core/src/test/java");
        var pg = sources("adapters-pg/src/test/java");
        var oracle = sources("adapters-oracle/src/test/java");
        for (var contract : contracts) {
            var user = Pattern.compile("(implements|extends)[^{]*\\b" + contract + "\\b");
            boolean abstractParent = user.matcher(pipelineCore.replace("interface " + contract, "")).find()
                    && !user.matcher(pg).find() && !user.matcher(oracle).find();
            if (abstractParent) {
                continue; // extended by another contract, which the stores run
            }
            assertThat(user.matcher(pg).find()).as(contract + " runs on PostgreSQL (adapters-pg)").isTrue();
            assertThat(user.matcher(oracle).find()).as(contract + " runs on Oracle (adapters-oracle)").isTrue();
        }
    }

    @Test
    void the_cli_and_the_console_offer_the_same_operator_actions() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.msgx.runner.cli", "io.msgx.runner.console");
        var actions = Arrays.stream(OperatorActions.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()))
                .filter(m -> Arrays.asList(m.getParameterTypes()).contains(Actor.class))
                .map(java.lang.reflect.Method::getName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(actions).contains("replay", "purgeEvents");
        for (var action : actions) {
            boolean cli = calledFrom(classes, "io.msgx.runner.cli", action);
            boolean console = calledFrom(classes, "io.msgx.runner.console", action);
            if (CLI_ONLY.containsKey(action)) {
                assertThat(cli && !console).as(action + " is the CLI's only (" + CLI_ONLY.get(action) + ")").isTrue();
            } else if (CONSOLE_ONLY.containsKey(action)) {
                assertThat(console && !cli).as(action + " is the console's only").isTrue();
            } else {
                assertThat(cli).as(action + " from the CLI").isTrue();
                assertThat(console).as(action + " from the console").isTrue();
            }
        }
    }

    private static boolean calledFrom(JavaClasses classes, String pkg, String method) {
        return classes.stream().filter(c -> c.getPackageName().equals(pkg))
                .flatMap(c -> c.getMethodCallsFromSelf().stream())
                .anyMatch(call -> call.getTargetOwner().isEquivalentTo(OperatorActions.class)
                        && call.getName().equals(method));
    }

    @Test
    void docs_reference_lists_every_configuration_key() throws IOException {
        var reference = Files.readString(ROOT.resolve("docs/reference.md"));
        var documented = new TreeSet<String>();
        var key = Pattern.compile("`(msgx\\.[a-z0-9.-]+)`");
        var suffix = Pattern.compile("`\\.([a-z0-9-]+)`");
        for (var line : reference.split("\n")) {
            var keys = key.matcher(line).results().map(m -> m.group(1)).toList();
            documented.addAll(keys);
            // A row may name a family by its first key and the others by their last segment: `a.b.table`, `.id-column`.
            if (!keys.isEmpty()) {
                var family = keys.get(0).substring(0, keys.get(0).lastIndexOf('.'));
                suffix.matcher(line).results().forEach(m -> documented.add(family + "." + m.group(1)));
            }
        }
        var missing = Keys.ALL.stream().filter(k -> !documented.contains(k)).toList();
        assertThat(missing).as("keys not in docs/reference.md").isEmpty();
    }

    @Test
    void every_shipped_alert_has_a_promtool_case() throws IOException {
        var alerts = names(Files.readString(ROOT.resolve("ops/prometheus/alerts.yml")), "- alert:\\s*(\\S+)");
        var cases = names(Files.readString(ROOT.resolve("ops/prometheus/alerts.test.yml")), "alertname:\\s*(\\S+)");
        assertThat(alerts).hasSizeGreaterThan(5);
        assertThat(cases).as("alerts with a case in alerts.test.yml").containsAll(alerts);
    }

    @Test
    void no_main_class_is_over_500_lines() throws IOException {
        var tooLong = new TreeSet<String>();
        int read = 0;
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (var sources : modules.map(module -> module.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (var file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        long lines = Files.readAllLines(file).size();
                        read++;
                        if (lines > MAX_CLASS_LINES) {
                            tooLong.add(ROOT.relativize(file) + " (" + lines + " lines)");
                        }
                    }
                }
            }
        }
        assertThat(read).as("main classes read").isGreaterThan(300);
        assertThat(tooLong).as("main classes over " + MAX_CLASS_LINES + " lines").isEmpty();
    }

    private static Set<String> names(String text, String regex) {
        return Pattern.compile(regex).matcher(text).results().map(m -> m.group(1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static String sources(String folder) throws IOException {
        try (Stream<Path> files = Files.walk(ROOT.resolve(folder))) {
            return files.filter(f -> f.toString().endsWith(".java")).map(f -> {
                try {
                    return Files.readString(f);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).collect(Collectors.joining("\n"));
        }
    }
}
