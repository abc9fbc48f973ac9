package io.msgx.runner.cli;

import io.msgx.runner.selftest.OracleSelfTest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;

/**
 * {@code oracle-selftest}: the store contract suites against a scratch schema on the store's Oracle, every check
 * reported and the run recorded in the store (D-88; docs/operations.md, "Oracle self-test"). Exit 0 when every check
 * passed (or was skipped with its reason), 1 when one failed or the run could not be made, 2 on bad usage.
 */
@Command(name = "oracle-selftest", description = {
        "Run this build's Oracle store contract suites against a scratch schema on the store's Oracle server,",
        "report every check, and record the run in the store (start-up warns until a run of this build passed).",
        "The scratch schema is a user an administrator creates and drops (--admin-user), or an empty user a DBA",
        "made for it (--scratch-user). Passwords are asked on the console, or read from the variable named by",
        "--admin-password-env / --scratch-password-env."})
final class OracleSelfTestCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    @Mixin
    ConfigOption config;

    @Option(names = "--admin-user", paramLabel = "USER",
            description = "A user who may CREATE USER, GRANT and DROP USER (e.g. SYSTEM): creates the scratch user.")
    String adminUser;

    @Option(names = "--admin-password-env", paramLabel = "VAR",
            description = "The environment variable holding --admin-user's password (default: ask on the console).")
    String adminPasswordEnv;

    @Option(names = "--scratch-user", paramLabel = "USER",
            description = "An empty user a DBA made for the self-test (CREATE SESSION, CREATE TABLE, CREATE SEQUENCE);"
                    + " the run's tables are dropped from it afterwards.")
    String scratchUser;

    @Option(names = "--scratch-password-env", paramLabel = "VAR",
            description = "The environment variable holding --scratch-user's password (default: ask on the console).")
    String scratchPasswordEnv;

    @Option(names = "--tablespace", paramLabel = "NAME",
            description = "The scratch user's tablespace (default: the store user's default tablespace).")
    String tablespace;

    @Option(names = "--operator", paramLabel = "NAME", description = "Who runs it, kept with the run (default: the "
            + "operating-system user).")
    String operator;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Where the report and the suites' output go "
            + "(default: a new folder in the temporary directory).")
    Path workDir;

    @Option(names = "--timeout-minutes", paramLabel = "N", defaultValue = "30",
            description = "How long the suites may run (default ${DEFAULT-VALUE}).")
    int timeoutMinutes;

    @Option(names = "--suites", paramLabel = "DIR", description = "Where the suites' jars are (default: "
            + "lib/oracle-selftest beside the runner's jar).")
    Path suites;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        if (adminUser != null && scratchUser != null) {
            err.println("Give --admin-user (a scratch user is created and dropped) or --scratch-user (an empty user a "
                    + "DBA made), not both");
            return Main.USAGE;
        }
        if (timeoutMinutes < 1) {
            err.println("--timeout-minutes: expected 1 or more, got " + timeoutMinutes);
            return Main.USAGE;
        }
        OracleSelfTest.Logon admin;
        OracleSelfTest.Logon scratch;
        try {
            admin = adminUser == null ? null : new OracleSelfTest.Logon(adminUser,
                    password(adminUser, adminPasswordEnv, "--admin-password-env"));
            scratch = scratchUser == null ? null : new OracleSelfTest.Logon(scratchUser,
                    password(scratchUser, scratchPasswordEnv, "--scratch-password-env"));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return Main.USAGE;
        }
        var clock = Clock.systemUTC();
        var where = workDir != null ? workDir : Path.of(System.getProperty("java.io.tmpdir"),
                "msgexchange-oracle-selftest-" + STAMP.format(clock.instant()));
        var request = new OracleSelfTest.Request(admin, scratch, tablespace,
                operator != null ? operator : System.getProperty("user.name", "unknown"), suites, where,
                Duration.ofMinutes(timeoutMinutes));
        OracleSelfTest.Result result;
        try {
            result = OracleSelfTest.run(config.load(), request, clock, out::println);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return Main.USAGE;
        }
        out.println();
        out.print(result.run().report());
        out.println();
        out.println("Recorded as run " + result.runId() + " in SELF_TEST; the report is in " + result.reportFile()
                + " and the suites' output in " + where.resolve("suites.log"));
        result.leftBehind().ifPresent(left -> err.println("Warning: " + left));
        return result.run().passed() ? 0 : Main.FAILED;
    }

    /** The password of {@code user}: from the variable named, else asked on the console. */
    private static String password(String user, String variable, String option) {
        if (variable != null) {
            var value = System.getenv(variable);
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException(option + " names " + variable + ", which is not set: set it to the "
                        + "password of " + user);
            }
            return value;
        }
        var console = System.console();
        if (console == null) {
            throw new IllegalArgumentException("no console to ask the password of " + user + " on: name the "
                    + "environment variable holding it with " + option);
        }
        var typed = console.readPassword("Password of %s: ", user);
        if (typed == null || typed.length == 0) {
            throw new IllegalArgumentException("no password given for " + user);
        }
        return new String(typed);
    }
}
