package io.msgx.runner.http;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Settings of the HTTP side.
 *
 * @param host            the address to bind ({@value #HOST_KEY}, default {@value #DEFAULT_HOST}: every interface)
 * @param port            the port ({@value #PORT_KEY}, default {@value #DEFAULT_PORT}); 0 picks a free one, which
 *                        {@link HttpApi#port()} tells after start
 * @param token           the legacy single secret ({@value #TOKEN_KEY}): a credential named {@code token} with the
 *                        roles reader, injector and operator; null or blank when none
 * @param maxBodyBytes    the largest body the entry reads ({@value #MAX_BODY_KEY}, default 2 MiB); larger → 413
 * @param readyTimeout    how long {@code /health/ready} waits for its checks ({@value #READY_TIMEOUT_KEY},
 *                        default 2s); a check without an answer by then is DOWN
 * @param credentialsFile the credentials file ({@value #CREDENTIALS_FILE_KEY}); null when none
 * @param idleTimeout     a connection that sends or reads nothing for this long is closed ({@value #IDLE_TIMEOUT_KEY},
 *                        default 30s)
 * @param maxConnections  connections served at once ({@value #MAX_CONNECTIONS_KEY}, default
 *                        {@value #DEFAULT_MAX_CONNECTIONS}); beyond, new ones wait in the backlog
 * @param tls             HTTPS on the port; null for plain HTTP
 * @param metricsOpen     {@value #METRICS_OPEN_KEY} (default true): {@code /metrics} for anyone; false: for a
 *                        credential with the role {@code metrics}
 * @param maxFailedAttempts wrong secrets a client may send per minute before it is answered 429 for the rest of
 *                        that minute ({@value #MAX_FAILED_ATTEMPTS_KEY}, default {@value #DEFAULT_MAX_FAILED_ATTEMPTS})
 */
public record HttpSettings(String host, int port, String token, long maxBodyBytes, Duration readyTimeout,
                           Path credentialsFile, Duration idleTimeout, int maxConnections, Tls tls,
                           boolean metricsOpen, int maxFailedAttempts) {

    public static final String HOST_KEY = "msgx.http.host";
    public static final String PORT_KEY = "msgx.http.port";
    public static final String TOKEN_KEY = "msgx.http.token";
    public static final String MAX_BODY_KEY = "msgx.http.max-body-bytes";
    public static final String READY_TIMEOUT_KEY = "msgx.http.ready-timeout";
    public static final String CREDENTIALS_FILE_KEY = "msgx.http.credentials-file";
    public static final String IDLE_TIMEOUT_KEY = "msgx.http.idle-timeout";
    public static final String MAX_CONNECTIONS_KEY = "msgx.http.max-connections";
    public static final String METRICS_OPEN_KEY = "msgx.http.metrics-open";
    public static final String MAX_FAILED_ATTEMPTS_KEY = "msgx.http.max-failed-attempts";
    public static final String TLS_KEYSTORE_KEY = "msgx.http.tls.keystore";
    public static final String TLS_KEYSTORE_PASSWORD_KEY = "msgx.http.tls.keystore-password";
    public static final String TLS_KEYSTORE_TYPE_KEY = "msgx.http.tls.keystore-type";

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 8080;
    public static final long DEFAULT_MAX_BODY_BYTES = 2L * 1024 * 1024;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    public static final int DEFAULT_MAX_FAILED_ATTEMPTS = 10;

    /**
     * HTTPS: the keystore holding the server's key and certificate chain.
     *
     * @param keystore the file ({@value #TLS_KEYSTORE_KEY})
     * @param password its password ({@value #TLS_KEYSTORE_PASSWORD_KEY}); never shown
     * @param type     {@code PKCS12} (default) or {@code JKS} ({@value #TLS_KEYSTORE_TYPE_KEY})
     */
    public record Tls(Path keystore, String password, String type) {
        public Tls {
            Objects.requireNonNull(keystore, TLS_KEYSTORE_KEY);
            type = type == null || type.isBlank() ? "PKCS12" : type.strip().toUpperCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return "Tls[keystore=" + keystore + ", type=" + type + ", password=" + (password == null ? "(none)"
                    : "(set)") + "]";
        }
    }

    public HttpSettings {
        host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
        token = token == null || token.isBlank() ? null : token.strip();
        Objects.requireNonNull(readyTimeout, READY_TIMEOUT_KEY);
        Objects.requireNonNull(idleTimeout, IDLE_TIMEOUT_KEY);
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
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException(IDLE_TIMEOUT_KEY + " must be positive, got " + idleTimeout);
        }
        if (maxFailedAttempts < 1) {
            throw new IllegalArgumentException(MAX_FAILED_ATTEMPTS_KEY + " must be at least 1, got " + maxFailedAttempts);
        }
        if (maxConnections < 4) {
            throw new IllegalArgumentException(MAX_CONNECTIONS_KEY + " must be at least 4, got " + maxConnections);
        }
    }

    /** The settings of the first HTTP side: no credentials file, the default timeouts and limits, plain HTTP. */
    public HttpSettings(String host, int port, String token, long maxBodyBytes, Duration readyTimeout) {
        this(host, port, token, maxBodyBytes, readyTimeout, null, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS, null,
                true, DEFAULT_MAX_FAILED_ATTEMPTS);
    }

    /** The defaults, without any credential (then only health and metrics answer). */
    public static HttpSettings defaults() {
        return new HttpSettings(DEFAULT_HOST, DEFAULT_PORT, null, DEFAULT_MAX_BODY_BYTES, DEFAULT_READY_TIMEOUT);
    }

    /** These settings with another credentials file. */
    public HttpSettings withCredentialsFile(Path file) {
        return new HttpSettings(host, port, token, maxBodyBytes, readyTimeout, file, idleTimeout, maxConnections, tls,
                metricsOpen, maxFailedAttempts);
    }

    /** These settings with HTTPS (null: plain HTTP). */
    public HttpSettings withTls(Tls https) {
        return new HttpSettings(host, port, token, maxBodyBytes, readyTimeout, credentialsFile, idleTimeout,
                maxConnections, https, metricsOpen, maxFailedAttempts);
    }

    /** These settings with another idle timeout and metrics access. */
    public HttpSettings with(Duration idle, boolean openMetrics) {
        return new HttpSettings(host, port, token, maxBodyBytes, readyTimeout, credentialsFile, idle, maxConnections,
                tls, openMetrics, maxFailedAttempts);
    }

    /**
     * Read the settings from configuration: {@code lookup} answers a key's value or null when it is not set.
     * Durations are written {@code 500ms}, {@code 2s} or {@code 1m}.
     *
     * @throws IllegalArgumentException naming the key whose value cannot be read
     */
    public static HttpSettings from(Function<String, String> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        var keystore = lookup.apply(TLS_KEYSTORE_KEY);
        var credentials = lookup.apply(CREDENTIALS_FILE_KEY);
        var metricsOpen = lookup.apply(METRICS_OPEN_KEY);
        if (metricsOpen != null && !metricsOpen.isBlank() && !metricsOpen.strip().matches("(?i)true|false")) {
            throw new IllegalArgumentException(METRICS_OPEN_KEY + " must be true or false, got '" + metricsOpen + "'");
        }
        return new HttpSettings(
                lookup.apply(HOST_KEY),
                (int) longOf(lookup, PORT_KEY, DEFAULT_PORT),
                lookup.apply(TOKEN_KEY),
                longOf(lookup, MAX_BODY_KEY, DEFAULT_MAX_BODY_BYTES),
                durationOf(lookup, READY_TIMEOUT_KEY, DEFAULT_READY_TIMEOUT),
                credentials == null || credentials.isBlank() ? null : Path.of(credentials.strip()),
                durationOf(lookup, IDLE_TIMEOUT_KEY, DEFAULT_IDLE_TIMEOUT),
                (int) longOf(lookup, MAX_CONNECTIONS_KEY, DEFAULT_MAX_CONNECTIONS),
                keystore == null || keystore.isBlank() ? null : new Tls(Path.of(keystore.strip()),
                        lookup.apply(TLS_KEYSTORE_PASSWORD_KEY), lookup.apply(TLS_KEYSTORE_TYPE_KEY)),
                metricsOpen == null || metricsOpen.isBlank() || Boolean.parseBoolean(metricsOpen.strip()),
                (int) longOf(lookup, MAX_FAILED_ATTEMPTS_KEY, DEFAULT_MAX_FAILED_ATTEMPTS));
    }

    /** Never shows a secret. */
    @Override
    public String toString() {
        return "HttpSettings[host=" + host + ", port=" + port + ", token=" + (token == null ? "(none)" : "(set)")
                + ", credentialsFile=" + (credentialsFile == null ? "(none)" : credentialsFile) + ", maxBodyBytes="
                + maxBodyBytes + ", readyTimeout=" + readyTimeout + ", idleTimeout=" + idleTimeout + ", maxConnections="
                + maxConnections + ", tls=" + (tls == null ? "(off)" : tls) + ", metricsOpen=" + metricsOpen + ", maxFailedAttempts=" + maxFailedAttempts + "]";
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
