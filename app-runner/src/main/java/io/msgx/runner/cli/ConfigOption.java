package io.msgx.runner.cli;

import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --config FILE}: a .properties or .yml file, overridden by MSGX_* environment variables. */
public final class ConfigOption {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Configuration file (.properties or .yml); MSGX_* environment variables override it.")
    Path file;

    /** The configuration, read and checked; its log format ({@code msgx.log.format}) applies from here on. */
    public RunnerConfig load() {
        var config = RunnerConfig.from(ConfigSource.load(file, System.getenv()));
        config.logFormat().apply();
        return config;
    }

    MsgExchange open() {
        return MsgExchange.builder().config(load()).build();
    }
}
