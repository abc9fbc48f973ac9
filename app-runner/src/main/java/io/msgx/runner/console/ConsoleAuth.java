package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.runner.http.AccessGate;
import io.msgx.runner.http.Role;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may read and act in the console: a credential of the HTTP side with the role {@code operator} (D-145),
 * checked by the {@link AccessGate} every part of the HTTP side shares. The operator's name in every audit line and
 * audit row is the credential's name, never something typed into a form.
 *
 * <ul>
 *   <li><b>Browser:</b> the login form POSTs the credential's secret; on a match the server opens a session and sets
 *       an {@code HttpOnly; SameSite=Strict; Path=/console} cookie holding only a random 256-bit session ID. The
 *       secret itself never reaches the page's JavaScript or the browser's storage. Sessions live in memory,
 *       {@link #SESSION_LIFETIME} at most, and end at logout, at restart, or as soon as their credential is revoked
 *       or loses the role (the credentials file is read again when it changes).</li>
 *   <li><b>Scripts:</b> {@code Authorization: Bearer <secret>} on any console request, as on the other endpoints.</li>
 * </ul>
 *
 * Actions are POST only. A cookie-carried POST must come from the console's own origin ({@code Origin}, else
 * {@code Referer}, naming the request's {@code Host}) and carry the session's CSRF token in the form; a bearer POST
 * cannot be forged by another site (it cannot set that header without a CORS preflight, which the console never
 * grants).
 */
final class ConsoleAuth {

    static final String COOKIE = "msgx_console";
    static final Duration SESSION_LIFETIME = Duration.ofHours(8);
    static final int MAX_SESSIONS = 200;

    /** Who is asking: the credential's name, the session's CSRF token (null for a bearer client). */
    record Caller(String operator, String csrf, String sessionId) {
        boolean bearer() {
            return sessionId == null;
        }
    }

    private record Session(String operator, String csrf, Instant expiresAt) {
    }

    private final AccessGate gate;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    ConsoleAuth(AccessGate gate, Clock clock) {
        this.gate = gate;
        this.clock = clock;
    }

    /** False when no credential has the role operator: the console is off. */
    boolean enabled() {
        return gate.credentials().anyMay(Role.OPERATOR);
    }

    /** The login form's secret, from {@code client}: the credential's name, or the refusal. */
    AccessGate.Access login(String secret, String client) {
        return gate.login(secret, client, Role.OPERATOR);
    }

    /** The caller of this request, by bearer header or session cookie; empty when neither is valid. */
    Optional<Caller> caller(HttpExchange exchange) {
        if (exchange.getRequestHeaders().getFirst("Authorization") != null) {
            return gate.check(exchange, Role.OPERATOR, "console") instanceof AccessGate.Access.Granted granted
                    ? Optional.of(new Caller(granted.credential().name(), null, null)) : Optional.empty();
        }
        var id = cookie(exchange, COOKIE);
        if (id == null) {
            return Optional.empty();
        }
        var session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(session.expiresAt()) || !stillOperator(session.operator())) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(new Caller(session.operator(), session.csrf(), id));
    }

    private boolean stillOperator(String name) {
        return gate.credentials().all().stream().anyMatch(c -> c.name().equals(name) && c.may(Role.OPERATOR));
    }

    /**
     * Open a session for {@code operator}; returns the {@code Set-Cookie} value ({@code Secure} when the login came
     * over HTTPS).
     */
    String open(String operator, boolean https) {
        var now = clock.instant();
        sessions.entrySet().removeIf(e -> !now.isBefore(e.getValue().expiresAt()));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.entrySet().stream().min(Comparator.comparing(e -> e.getValue().expiresAt()))
                    .ifPresent(oldest -> sessions.remove(oldest.getKey()));
        }
        var id = randomToken();
        sessions.put(id, new Session(operator, randomToken(), now.plus(SESSION_LIFETIME)));
        return COOKIE + "=" + id + "; Path=/console; HttpOnly; SameSite=Strict; Max-Age=" + SESSION_LIFETIME.toSeconds()
                + (https ? "; Secure" : "");
    }

    /** End the caller's session; returns the {@code Set-Cookie} value that clears the cookie. */
    String close(Caller caller) {
        if (caller.sessionId() != null) {
            sessions.remove(caller.sessionId());
        }
        return COOKIE + "=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0";
    }

    /**
     * Whether a POST may change anything: a bearer caller always; a session caller only from this origin and with
     * the session's CSRF token in the form.
     */
    boolean mayAct(HttpExchange exchange, Caller caller, String csrfField) {
        if (caller.bearer()) {
            return true;
        }
        return sameOrigin(exchange) && csrfField != null
                && MessageDigest.isEqual(caller.csrf().getBytes(StandardCharsets.UTF_8),
                csrfField.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code Origin} (or, without it, {@code Referer}) names the host this request was sent to. */
    static boolean sameOrigin(HttpExchange exchange) {
        var host = exchange.getRequestHeaders().getFirst("Host");
        var origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin == null || origin.equals("null")) {
            origin = exchange.getRequestHeaders().getFirst("Referer");
        }
        if (host == null || origin == null) {
            return false;
        }
        try {
            var uri = URI.create(origin.strip());
            if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return false;
            }
            var authority = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
            return authority.toLowerCase(Locale.ROOT).equals(host.strip().toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static String cookie(HttpExchange exchange, String name) {
        for (var header : exchange.getRequestHeaders().getOrDefault("Cookie", java.util.List.of())) {
            for (var part : header.split(";")) {
                var pair = part.strip();
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).equals(name)) {
                    return pair.substring(eq + 1);
                }
            }
        }
        return null;
    }

    private String randomToken() {
        var bytes = new byte[32];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
