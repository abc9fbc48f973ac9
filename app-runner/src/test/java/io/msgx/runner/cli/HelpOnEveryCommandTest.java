package io.msgx.runner.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An operator can ask any command, at any depth, for its usage: {@code --help} prints it and exits 0 (issue 23). */
class HelpOnEveryCommandTest {

    @Test
    void every_command_and_subcommand_answers_help_with_its_usage_and_exit_code_zero() {
        var paths = new ArrayList<List<String>>();
        collect(new CommandLine(new Main()), List.of(), paths);
        assertThat(paths).as("the command tree").hasSizeGreaterThan(20);

        for (var path : paths) {
            var args = new ArrayList<>(path);
            args.add("--help");
            var out = new ByteArrayOutputStream();
            var commandLine = new CommandLine(new Main());
            commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
            int code = commandLine.execute(args.toArray(String[]::new));
            assertThat(code).as(String.join(" ", args)).isZero();
            assertThat(out.toString(StandardCharsets.UTF_8)).as(String.join(" ", args))
                    .startsWith("Usage: msgexchange" + (path.isEmpty() ? "" : " " + String.join(" ", path)));
        }
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> into) {
        into.add(path);
        command.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().name().equals(name)) {
                var longer = new ArrayList<>(path);
                longer.add(name);
                collect(sub, longer, into);
            }
        });
    }
}
