package io.msgx.pipeline.audit;

import java.util.Objects;

/**
 * Who asks for an operator action, and from where: the operator's name, the channel ({@code cli} or {@code console})
 * and the source (the console caller's remote address; for the CLI the host and the OS user). Written to every row of
 * {@code OPERATOR_AUDIT} (D-137).
 *
 * @param name    the operator, 1 to {@value #MAX_NAME_LENGTH} characters, no control character
 * @param channel where the action came in
 * @param source  from where, 1 to {@value #MAX_SOURCE_LENGTH} characters (cut to fit; control characters blanked)
 */
public record Actor(String name, Channel channel, String source) {

    /** The width of {@code OPERATOR_AUDIT.OPERATOR} (as {@code BACKFILL_RECONCILIATION.OPERATOR}). */
    public static final int MAX_NAME_LENGTH = 64;

    /** The width of {@code OPERATOR_AUDIT.ORIGIN}. */
    public static final int MAX_SOURCE_LENGTH = 255;

    /** Where an action came in. */
    public enum Channel {
        CLI("cli"),
        CONSOLE("console");

        private final String code;

        Channel(String code) {
            this.code = code;
        }

        /** As stored in {@code OPERATOR_AUDIT.CHANNEL}. */
        public String code() {
            return code;
        }

        /** The channel stored as {@code code}. */
        public static Channel ofCode(String code) {
            for (var channel : values()) {
                if (channel.code.equals(code)) {
                    return channel;
                }
            }
            throw new IllegalArgumentException("no audit channel '" + code + "' (cli, console)");
        }
    }

    public Actor {
        Objects.requireNonNull(channel, "channel");
        if (name == null || name.isBlank() || name.length() > MAX_NAME_LENGTH
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("an operator is named in 1 to " + MAX_NAME_LENGTH
                    + " characters without control characters, got " + (name == null ? "none" : "'"
                    + name.replaceAll("\\p{Cntrl}", "?") + "'"));
        }
        source = source == null || source.isBlank() ? "?" : source.replaceAll("\\p{Cntrl}", " ");
        if (source.length() > MAX_SOURCE_LENGTH) {
            source = source.substring(0, MAX_SOURCE_LENGTH);
        }
    }

    /** An operator at the command line: {@code source} says where it ran ({@code cli@<host> (os user <user>)}). */
    public static Actor cli(String name, String source) {
        return new Actor(name, Channel.CLI, source);
    }

    /** An operator of the console, calling from {@code address}. */
    public static Actor console(String name, String address) {
        return new Actor(name, Channel.CONSOLE, address);
    }

    /** As the {@code AUDIT} log line names the channel: {@code cli}, or {@code console from <address>}. */
    public String logChannel() {
        return channel == Channel.CONSOLE ? "console from " + source : channel.code();
    }
}
