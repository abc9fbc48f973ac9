package io.msgx.runner.config;

import java.util.List;

/** The configuration cannot be used; the message lists every problem with its key, value and what was expected. */
public final class ConfigException extends RuntimeException {

    private final List<String> problems;

    public ConfigException(List<String> problems) {
        super("Configuration refused:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
