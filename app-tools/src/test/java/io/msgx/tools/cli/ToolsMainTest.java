package io.msgx.tools.cli;

import io.msgx.runner.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code msgexchange-tools}: the bench moved here from the runner's CLI with its options, output and exit codes. */
class ToolsMainTest {

    @TempDir
    Path dir;

    @Test
    void every_command_answers_help_with_its_usage_and_exit_code_zero() {
        for (var args : List.of(List.of("--help"), List.of("bench", "--help"))) {
            var out = new StringWriter();
            var commandLine = new CommandLine(new ToolsMain());
            commandLine.setOut(new PrintWriter(out, true));

            assertThat(commandLine.execute(args.toArray(String[]::new))).as(String.join(" ", args)).isZero();
            assertThat(out.toString()).as(String.join(" ", args))
                    .startsWith("Usage: msgexchange-tools" + (args.size() == 1 ? "" : " bench"));
        }
    }

    @Test
    void bench_keeps_the_options_it_had_in_the_runner() {
        var bench = new CommandLine(new ToolsMain()).getSubcommands().get("bench").getCommandSpec();

        assertThat(bench.options().stream().map(CommandLine.Model.OptionSpec::longestName).toList()).contains("--config",
                "--messages", "--small-backlog", "--rate", "--live-seconds", "--baseline-seconds", "--producer-runs",
                "--reset", "--seed", "--flights-per-day", "--rows-per-insert", "--partitions", "--drain-timeout",
                "--json-out");
    }

    @Test
    void bench_on_a_refused_configuration_or_without_a_broker_is_bad_usage_as_in_the_runner() throws Exception {
        var refused = Files.writeString(dir.resolve("refused.properties"), """
                msgx.store.url=jdbc:postgresql://127.0.0.1:5432/test
                msgx.mailbox.url=jdbc:mysql://127.0.0.1:3306/msgx_bench
                """);
        var noBroker = Files.writeString(dir.resolve("no-broker.properties"),
                Files.readString(refused) + "msgx.kafka.enabled=false\n");

        assertThat(bench(refused)).isEqualTo(Main.USAGE + " Configuration refused:");
        assertThat(bench(noBroker)).isEqualTo(Main.USAGE + " msgx.kafka.bootstrap-servers must be set: the bench "
                + "measures delivery to Kafka");
    }

    /** {@code bench --config file}: its exit code and the first line it wrote to stderr. */
    private static String bench(Path config) {
        var err = new ByteArrayOutputStream();
        var standardErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = ToolsMain.execute("bench", "--config", config.toString());
            return code + " " + err.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
        } finally {
            System.setErr(standardErr);
        }
    }
}
