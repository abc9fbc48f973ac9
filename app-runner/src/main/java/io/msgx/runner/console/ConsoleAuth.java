package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * Who may read and act in the console: the operator token of the HTTP side ({@code msgx.http.token}), presented
 * once.
 *
 * <ul>
 *   <li><b>Browser:</b> the login form POSTs the token and an operator name; on a match the server opens a session
 *       and sets an {@code HttpOnly; SameSite=Strict; Path=/console} cookie holding only a random 256-bit session
 *       ID. The token itself never reaches the page's JavaScript or the browser's storage, so a script injected
 *       into a page could not steal it. Sessions live in memory, {@link #SESSION_LIFETIME} at most, and end at
 *       logout or restart.</li>
 *   <li><b>Scripts:</b> {@code Authorization: Bearer <token>} on any console request, as on the compatibility
 *       entry; the operator name comes from {@code X-Msgx-Operator}.</li>
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
    static final String OPERATOR_HEADER = "X-Msgx-Operator";

    /** Who is asking: the operator's name, the session's CSRF token (null for a bearer client). */
    record Caller(String operator, String csrf, String sessionId) {
        boolean bearer() {
            return sessionId == null;
        }
    }

    private record Session(String operator, String csrf, Instant expiresAt) {
    }

    private final byte[] tokenHash;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** @param token the configured token; null when none (then nobody gets in) */
    ConsoleAuth(String token, Clock clock) {
        this.tokenHash = token == null || token.isBlank() ? null : sha256(token.strip());
        this.clock = clock;
    }

    /** False when no token is configured: the console is off. */
    boolean enabled() {
        return tokenHash != null;
    }

    boolean tokenMatches(String presented) {
        return tokenHash != null && presented != null && MessageDigest.isEqual(tokenHash, sha256(presented.strip()));
    }

    /** The caller of this request, by bearer header or session cookie; empty when neither is valid. */
    Optional<Caller> caller(HttpExchange exchange) {
        if (tokenHash == null) {
            return Optional.empty();
        }
        var authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization != null) {
            if (authorization.length() > 7 && authorization.substring(0, 7).equalsIgnoreCase("bearer ")
                    && tokenMatches(authorization.substring(7))) {
                var named = exchange.getRequestHeaders().getFirst(OPERATOR_HEADER);
                return Optional.of(new Caller(operatorName(named == null ? "api-client" : named), null, null));
            }
            return Optional.empty();
        }
        var id = cookie(exchange, COOKIE);
        if (id == null) {
            return Optional.empty();
        }
        var session = sessions.get(id);
        if (session == null) {
            return Optional.empty();
        }
        if (!clock.instant().isBefore(session.expiresAt())) {
            sessions.remove(id);
            return Optional.empty();
        }
        return Optional.of(new Caller(session.operator(), session.csrf(), id));
    }

    /** Open a session for {@code operator}; returns the {@code Set-Cookie} value. */
    String open(String operator) {
        var now = clock.instant();
        sessions.entrySet().removeIf(e -> !now.isBefore(e.getValue().expiresAt()));
        while (sessions.size() >= MAX_SESSIONS) {
            sessions.entrySet().stream().min(Comparator.comparing(e -> e.getValue().expiresAt()))
                    .ifPresent(oldest -> sessions.remove(oldest.getKey()));
        }
        var id = randomToken();
        sessions.put(id, new Session(operator, randomToken(), now.plus(SESSION_LIFETIME)));
        return COOKIE + "=" + id + "; Path=/console; HttpOnly; SameSite=Strict; Max-Age=" + SESSION_LIFETIME.toSeconds();
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

    /** An operator's name as logged and shown: printable, at most 64 characters; null when nothing is left. */
    static String operatorName(String raw) {
        if (raw == null) {
            return null;
        }
        var cleaned = raw.codePoints().filter(c -> !Character.isISOControl(c))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
        if (cleaned.isEmpty()) {
            return null;
        }
        return cleaned.length() > 64 ? cleaned.substring(0, 64) : cleaned;
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

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM; every Java 17 runtime has it", e);
        }
    }
}
