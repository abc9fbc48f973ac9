package io.msgx.runner.cli;

import picocli.CommandLine.Option;

/** {@code --operator NAME}: who asks for a change; every command that changes state names one for its audit line. */
final class OperatorOption {

    @Option(names = "--operator", paramLabel = "NAME", required = true,
            description = "Who asks (written to the AUDIT log line of the change).")
    String name;
}
