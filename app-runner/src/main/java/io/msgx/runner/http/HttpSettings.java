package io.msgx.runner.http;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Settings of the HTTP side.
 *
 * @param host           the address to bind ({@value #HOST_KEY}, default {@value #DEFAULT_HOST}: every interface)
 * @param port           the port ({@value #PORT_KEY}, default {@value #DEFAULT_PORT}); 0 picks a free one, which
 *                       {@link HttpApi#port()} tells after start
 * @param token          the bearer token of the compatibility entry ({@value #TOKEN_KEY}); null or blank means the
 *                       entry is disabled (403), never open
 * @param maxBodyBytes   the largest body the entry reads ({@value #MAX_BODY_KEY}, default 2 MiB); larger → 413
 * @param readyTimeout   how long {@code /health/ready} waits for its checks ({@value #READY_TIMEOUT_KEY},
 *                       default 2s); a check without an answer by then is DOWN
 */
public record HttpSettings(String host, int port, String token, long maxBodyBytes, Duration readyTimeout) {

    public static final String HOST_KEY = "msgx.http.host";
    public static final String PORT_KEY = "msgx.http.port";
    public static final String TOKEN_KEY = "msgx.http.token";
    public static final String MAX_BODY_KEY = "msgx.http.max-body-bytes";
    public static final String READY_TIMEOUT_KEY = "msgx.http.ready-timeout";

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 8080;
    public static final long DEFAULT_MAX_BODY_BYTES = 2L * 1024 * 1024;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(2);

    public HttpSettings {
        host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
        token = token == null || token.isBlank() ? null : token.strip();
        Objects.requireNonNull(readyTimeout, READY_TIMEOUT_KEY);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(PORT_KEY + " must be 0..65535 (0 = pick a free port), got " + port);
        }
        if (maxBodyBytes < 1 || maxBodyBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(MAX_BODY_KEY + " must be 1.." + (Integer.MAX_VALUE - 8)
                    + " bytes, got " + maxBodyBytes);
        }
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException(READY_TIMEOUT_KEY + " must be positive, got " + readyTimeout);
        }
    }

    /** The defaults, without a token (the compatibility entry disabled). */
    public static HttpSettings defaults() {
        return new HttpSettings(DEFAULT_HOST, DEFAULT_PORT, null, DEFAULT_MAX_BODY_BYTES, DEFAULT_READY_TIMEOUT);
    }

    /**
     * Read the settings from configuration: {@code lookup} answers a key's value or null when it is not set.
     * Durations are written {@code 500ms}, {@code 2s} or {@code 1m}.
     *
     * @throws IllegalArgumentException naming the key whose value cannot be read
     */
    public static HttpSettings from(Function<String, String> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        return new HttpSettings(
                lookup.apply(HOST_KEY),
                (int) longOf(lookup, PORT_KEY, DEFAULT_PORT),
                lookup.apply(TOKEN_KEY),
                longOf(lookup, MAX_BODY_KEY, DEFAULT_MAX_BODY_BYTES),
                durationOf(lookup, READY_TIMEOUT_KEY, DEFAULT_READY_TIMEOUT));
    }

    /** True when a token is configured, i.e. the compatibility entry may be used. */
    public boolean entryEnabled() {
        return token != null;
    }

    /** Never shows the token. */
    @Override
    public String toString() {
        return "HttpSettings[host=" + host + ", port=" + port + ", token=" + (token == null ? "(none)" : "(set)")
                + ", maxBodyBytes=" + maxBodyBytes + ", readyTimeout=" + readyTimeout + "]";
    }

    private static long longOf(Function<String, String> lookup, String key, long fallback) {
        var raw = lookup.apply(key);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(raw.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + raw + "'", e);
        }
    }

    private static Duration durationOf(Function<String, String> lookup, String key, Duration fallback) {
        var raw = lookup.apply(key);
        if (raw == null || raw.isBlank()) {
            return fallback;
        }
        var text = raw.strip().toLowerCase(Locale.ROOT);
        try {
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2).strip()));
            }
            if (text.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1).strip()));
            }
            if (text.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(text.substring(0, text.length() - 1).strip()));
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + " must be a duration like 500ms, 2s or 1m, got '" + raw + "'");
    }
}
