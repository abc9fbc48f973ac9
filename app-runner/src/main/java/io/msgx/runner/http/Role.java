package io.msgx.runner.http;

import io.msgx.runner.config.Keys;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a credential of the HTTP side may do (issue 36, D-145). A credential holds one or more roles; none implies
 * another.
 */
public enum Role {
    /** Reads data: {@code GET /reference/...}. */
    READER,
    /** Sends messages as the AODB: {@code POST /cminmsgs/send}, the compatibility entry. */
    INJECTOR,
    /** The operations console under {@code /console}: every page and every operator action. */
    OPERATOR,
    /** Scrapes {@code GET /metrics}, when {@value Keys#HTTP_METRICS_OPEN} is false. */
    METRICS;

    /** The role as written in the credentials file: lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The role a credentials file names. */
    static Role of(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is no role; expected one of "
                    + Arrays.stream(values()).map(Role::wireName).toList());
        }
    }
}
