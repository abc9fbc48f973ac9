package io.msgx.runner.http;

import io.msgx.runner.config.ConfigException;
import io.msgx.runner.config.ConfigReader;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Settings of the HTTP side.
 *
 * @param host            the address to bind ({@value Keys#HTTP_HOST}, default {@value #DEFAULT_HOST}: every interface)
 * @param port            the port ({@value Keys#HTTP_PORT}, default {@value #DEFAULT_PORT}); 0 picks a free one, which
 *                        {@link HttpApi#port()} tells after start
 * @param token           the legacy single secret ({@value Keys#HTTP_TOKEN}): a credential named {@code token} with the
 *                        roles reader, injector and operator; null or blank when none
 * @param maxBodyBytes    the largest body the entry reads ({@value Keys#HTTP_MAX_BODY}, default 2 MiB); larger → 413
 * @param readyTimeout    how long {@code /health/ready} waits for its checks ({@value Keys#HTTP_READY_TIMEOUT},
 *                        default 2s); a check without an answer by then is DOWN
 * @param credentialsFile the credentials file ({@value Keys#HTTP_CREDENTIALS_FILE}); null when none
 * @param idleTimeout     a connection that sends or reads nothing for this long is closed ({@value Keys#HTTP_IDLE_TIMEOUT},
 *                        default 30s)
 * @param maxConnections  connections served at once ({@value Keys#HTTP_MAX_CONNECTIONS}, default
 *                        {@value #DEFAULT_MAX_CONNECTIONS}); beyond, new ones wait in the backlog
 * @param tls             HTTPS on the port; null for plain HTTP
 * @param metricsOpen     {@value Keys#HTTP_METRICS_OPEN} (default true): {@code /metrics} for anyone; false: for a
 *                        credential with the role {@code metrics}
 * @param maxFailedAttempts wrong secrets a client may send per minute before it is answered 429 for the rest of
 *                        that minute ({@value Keys#HTTP_MAX_FAILED_ATTEMPTS}, default {@value #DEFAULT_MAX_FAILED_ATTEMPTS})
 */
public record HttpSettings(String host, int port, String token, long maxBodyBytes, Duration readyTimeout,
                           Path credentialsFile, Duration idleTimeout, int maxConnections, Tls tls,
                           boolean metricsOpen, int maxFailedAttempts) {

    private static final String KEY_PREFIX = "msgx.http.";

    public static final String DEFAULT_HOST = "0.0.0.0";
    public static final int DEFAULT_PORT = 8080;
    public static final long DEFAULT_MAX_BODY_BYTES = 2L * 1024 * 1024;
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_CONNECTIONS = 256;
    public static final int DEFAULT_MAX_FAILED_ATTEMPTS = 10;
    public static final String DEFAULT_KEYSTORE_TYPE = "PKCS12";

    /**
     * HTTPS: the keystore holding the server's key and certificate chain.
     *
     * @param keystore the file ({@value Keys#HTTP_TLS_KEYSTORE})
     * @param password its password ({@value Keys#HTTP_TLS_KEYSTORE_PASSWORD}); never shown
     * @param type     {@code PKCS12} (default) or {@code JKS} ({@value Keys#HTTP_TLS_KEYSTORE_TYPE})
     */
    public record Tls(Path keystore, String password, String type) {
        public Tls {
            Objects.requireNonNull(keystore, Keys.HTTP_TLS_KEYSTORE);
            type = type == null || type.isBlank() ? DEFAULT_KEYSTORE_TYPE : type.strip().toUpperCase(Locale.ROOT);
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
        Objects.requireNonNull(readyTimeout, Keys.HTTP_READY_TIMEOUT);
        Objects.requireNonNull(idleTimeout, Keys.HTTP_IDLE_TIMEOUT);
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException(Keys.HTTP_PORT + " must be 0..65535 (0 = pick a free port), got " + port);
        }
        if (maxBodyBytes < 1 || maxBodyBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(Keys.HTTP_MAX_BODY + " must be 1.." + (Integer.MAX_VALUE - 8)
                    + " bytes, got " + maxBodyBytes);
        }
        if (readyTimeout.isNegative() || readyTimeout.isZero()) {
            throw new IllegalArgumentException(Keys.HTTP_READY_TIMEOUT + " must be positive, got " + readyTimeout);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException(Keys.HTTP_IDLE_TIMEOUT + " must be positive, got " + idleTimeout);
        }
        if (maxFailedAttempts < 1) {
            throw new IllegalArgumentException(Keys.HTTP_MAX_FAILED_ATTEMPTS + " must be at least 1, got " + maxFailedAttempts);
        }
        if (maxConnections < 4) {
            throw new IllegalArgumentException(Keys.HTTP_MAX_CONNECTIONS + " must be at least 4, got " + maxConnections);
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
     * Read the settings from configuration, as the runner does ({@link #read}): {@code lookup} answers a key's value or
     * null when it is not set.
     *
     * @throws ConfigException naming every key whose value cannot be read
     */
    public static HttpSettings from(Function<String, String> lookup) {
        Objects.requireNonNull(lookup, "lookup");
        var given = new LinkedHashMap<String, String>();
        Keys.ALL.stream().filter(key -> key.startsWith(KEY_PREFIX)).forEach(key -> {
            var value = lookup.apply(key);
            if (value != null) {
                given.put(key, value);
            }
        });
        var settings = new ConfigReader(ConfigSource.of(given));
        var http = settings.checked(() -> read(settings));
        settings.verify();
        return http;
    }

    /**
     * The one reader of the {@code msgx.http.*} keys, through the runner's typed reader: each key's default and range
     * is written here and nowhere else ({@code RunnerConfig} and {@link #from} both read through it).
     */
    public static HttpSettings read(ConfigReader s) {
        var keystore = s.string(Keys.HTTP_TLS_KEYSTORE, null);
        var credentialsFile = s.string(Keys.HTTP_CREDENTIALS_FILE, null);
        return new HttpSettings(s.string(Keys.HTTP_HOST, DEFAULT_HOST),
                s.integer(Keys.HTTP_PORT, DEFAULT_PORT, 0, 65535), s.string(Keys.HTTP_TOKEN, null),
                s.integer(Keys.HTTP_MAX_BODY, (int) DEFAULT_MAX_BODY_BYTES, 1024, 64 * 1024 * 1024),
                s.duration(Keys.HTTP_READY_TIMEOUT, DEFAULT_READY_TIMEOUT),
                credentialsFile == null ? null : Path.of(credentialsFile),
                s.duration(Keys.HTTP_IDLE_TIMEOUT, DEFAULT_IDLE_TIMEOUT),
                s.integer(Keys.HTTP_MAX_CONNECTIONS, DEFAULT_MAX_CONNECTIONS, 4, 100_000),
                keystore == null ? null : new Tls(Path.of(keystore),
                        s.string(Keys.HTTP_TLS_KEYSTORE_PASSWORD, null), s.string(Keys.HTTP_TLS_KEYSTORE_TYPE, DEFAULT_KEYSTORE_TYPE)),
                s.bool(Keys.HTTP_METRICS_OPEN, true),
                s.integer(Keys.HTTP_MAX_FAILED_ATTEMPTS, DEFAULT_MAX_FAILED_ATTEMPTS, 1, 1_000_000));
    }

    /** Never shows a secret. */
    @Override
    public String toString() {
        return "HttpSettings[host=" + host + ", port=" + port + ", token=" + (token == null ? "(none)" : "(set)")
                + ", credentialsFile=" + (credentialsFile == null ? "(none)" : credentialsFile) + ", maxBodyBytes="
                + maxBodyBytes + ", readyTimeout=" + readyTimeout + ", idleTimeout=" + idleTimeout + ", maxConnections="
                + maxConnections + ", tls=" + (tls == null ? "(off)" : tls) + ", metricsOpen=" + metricsOpen + ", maxFailedAttempts=" + maxFailedAttempts + "]";
    }
}
