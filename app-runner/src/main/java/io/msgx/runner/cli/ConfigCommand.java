package io.msgx.runner.cli;

import io.msgx.runner.config.ConfigReport;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.RunnerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code config ...}: the configuration as this build reads it. */
@Command(name = "config", description = "The configuration as this build reads it.", subcommands = ConfigCommand.Check.class)
final class ConfigCommand {

    /**
     * {@code config check [-c FILE] [--json]}: every known key with its effective value and its source (default, the
     * file, the environment variable), secrets masked, then every problem. Exits 0 when the configuration is valid, 2
     * when {@code run} would refuse it. Connects to nothing: it checks the configuration, not the services (D-72).
     */
    @Command(name = "check", description = "Print every key with its effective value and source (secrets masked), "
            + "then the problems; exit 0 when valid, 2 when not. Connects to nothing.")
    static final class Check implements Callable<Integer> {

        @Mixin
        ConfigOption config;

        @Option(names = "--json", description = "Print JSON: {valid, problems, keys: [{key, value, source}]}.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            var out = spec.commandLine().getOut();
            var report = RunnerConfig.check(ConfigSource.load(config.file, System.getenv()));
            if (json) {
                JsonOutput.print(out, asMap(report));
            } else {
                print(out, report);
            }
            return report.valid() ? 0 : Main.USAGE;
        }

        private static void print(PrintWriter out, ConfigReport report) {
            int width = report.entries().stream().mapToInt(entry -> entry.key().length()).max().orElse(0);
            for (var entry : report.entries()) {
                out.printf("%-" + width + "s  %s  (%s)%n", entry.key(), entry.value() == null ? "-" : entry.value(),
                        entry.source());
            }
            out.println();
            if (report.valid()) {
                out.println("Configuration valid.");
            } else {
                out.println("Configuration refused:");
                report.problems().forEach(problem -> out.println("  - " + problem));
            }
            out.flush();
        }

        static Map<String, Object> asMap(ConfigReport report) {
            var map = new LinkedHashMap<String, Object>();
            map.put("valid", report.valid());
            map.put("problems", report.problems());
            List<Map<String, Object>> keys = report.entries().stream().map(entry -> {
                var one = new LinkedHashMap<String, Object>();
                one.put("key", entry.key());
                one.put("value", entry.value());
                one.put("source", entry.source());
                return (Map<String, Object>) one;
            }).toList();
            map.put("keys", keys);
            return map;
        }
    }
}
