package io.msgx.runner.cli;

import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Mixin;

import java.util.concurrent.Callable;

/**
 * A command that reads or changes the pipeline through its store: {@code --config} opens the exchange for the
 * command's run and closes it after; the answer goes out as JSON or text ({@link CommandAnswer}). Arguments that do
 * not fit together are refused before anything is opened ({@link #refuseArguments}).
 */
abstract class StoreCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Mixin
    CommandAnswer answer;

    @Override
    public final Integer call() {
        var refused = refuseArguments();
        if (refused != null) {
            return refused;
        }
        try (var exchange = config.open()) {
            return run(exchange);
        }
    }

    /** The exit code of arguments that do not fit together, said on standard error; null when they fit. */
    Integer refuseArguments() {
        return null;
    }

    /** What the command does with the open exchange; its exit code. */
    abstract int run(MsgExchange exchange);
}
