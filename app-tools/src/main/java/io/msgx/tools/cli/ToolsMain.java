package io.msgx.tools.cli;

import io.msgx.runner.cli.Main;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * {@code java -jar msgexchange-tools.jar <command>}: the tools that write their own traffic, kept out of the
 * production jar (D-89). Same options, output and exit codes as the runner's commands ({@link Main}).
 */
@Command(name = "msgexchange-tools", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = Main.Version.class,
        description = {"msgexchange's test tools, kept out of the production jar.",
                "bench fills and wipes the mailbox and the store it is pointed at: never an airport's own."},
        subcommands = {BenchCommand.class})
public final class ToolsMain {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Run a command line and return its exit code (tests call this). */
    public static int execute(String... args) {
        return Main.execute(new CommandLine(new ToolsMain()), args);
    }
}
