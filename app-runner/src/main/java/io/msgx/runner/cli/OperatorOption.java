package io.msgx.runner.cli;

import io.msgx.pipeline.audit.Actor;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * {@code --operator NAME}: who asks for a change; every command that changes state names one. The change's audit row
 * ({@code OPERATOR_AUDIT}, D-137) records it with the channel {@code cli} and, as where it came from, this host and the
 * OS user the command runs as: {@code cli@<host> (os user <user>)}.
 */
final class OperatorOption {

    @Option(names = "--operator", paramLabel = "NAME", required = true,
            description = "Who asks (recorded in the audit trail with this host and OS user).")
    String name;

    /** The operator named, at the command line of this host as this OS user. */
    Actor actor() {
        return Actor.cli(name, source());
    }

    /**
     * For the commands that name no operator ({@code request}, {@code backfill reopen}): the OS user the command runs
     * as, at this host.
     */
    static Actor osUser() {
        return Actor.cli(System.getProperty("user.name", "?"), source());
    }

    /** {@code cli@<host> (os user <user.name>)}. */
    static String source() {
        return "cli@" + host() + " (os user " + System.getProperty("user.name", "?") + ")";
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            var fromEnvironment = System.getenv("HOSTNAME");
            return fromEnvironment == null || fromEnvironment.isBlank() ? "?" : fromEnvironment;
        }
    }
}
