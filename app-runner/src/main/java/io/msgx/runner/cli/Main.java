package io.msgx.runner.cli;

import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ScopeType;

/**
 * {@code java -jar msgexchange.jar <command>}: the operator's entry point. {@code --help} and {@code --version} work on
 * every command and subcommand (inherited from here). Exit codes: 0 done, 1 failed,
 * 2 bad usage or configuration, 3 not found, 4 refused (the request does not apply to that message), 70 a loop of
 * {@code run} met a JVM Error (D-74).
 */
@Command(name = "msgexchange", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = Main.Version.class,
        description = "AODB/SIS mailbox -> authoritative flight state -> Kafka.",
        subcommands = {RunCommand.class, ConfigCommand.class, MigrateCommand.class, StatusCommand.class, MessageCommand.class,
                FlightCommand.class, ReferenceCommand.class, DeadCommand.class, FailedCommand.class, EventsCommand.class, RequestCommand.class, ReplayCommand.class, SkipCommand.class, SeedCommand.class, BackfillCommand.class,
                AuditCommand.class, OracleSelfTestCommand.class, CredentialCommand.class})
public final class Main {

    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int NOT_FOUND = 3;
    public static final int REFUSED = 4;
    /** {@code run}: a background loop met a JVM {@link Error}; the service manager restarts the process (EX_SOFTWARE). */
    public static final int FATAL = 70;

    /** {@code --version}: this build ({@link BuildInfo}) and the Java runtime it runs on (the tools' jar's too). */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"msgexchange " + BuildInfo.current().describe(), "Java " + Runtime.version()};
        }
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Run a command line and return its exit code (tests call this). */
    public static int execute(String... args) {
        return execute(new CommandLine(new Main()), args);
    }

    /**
     * Run {@code commandLine} with this entry point's exit codes for a bad configuration and a failure; the tools'
     * jar (app-tools) runs its commands through it too.
     */
    public static int execute(CommandLine commandLine, String... args) {
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof ConfigException) {
                cmd.getErr().println(e.getMessage());
                return USAGE;
            }
            cmd.getErr().println("Failed: " + e.getMessage());
            return FAILED;
        });
        return commandLine.execute(args);
    }
}
