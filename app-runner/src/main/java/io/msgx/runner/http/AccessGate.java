package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.runner.config.Keys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Who may do what on the HTTP side (issue 36, D-145): the one place where a request's {@code Authorization: Bearer}
 * secret is turned into a {@link Credential} and its roles are checked, for the endpoints and the console alike.
 *
 * <p>Failed attempts are counted per client address: after {@link HttpSettings#maxFailedAttempts()} within {@link #WINDOW}, that client
 * is answered 429 (with {@code Retry-After}) without its secret being looked at, until the window ends. Each refusal
 * is logged at WARN only when it is a client's first in its window and when the client is held back; the rest are
 * counted and told in that second line, so a client guessing secrets cannot flood the log.
 */
public final class AccessGate {

    public static final Duration WINDOW = Duration.ofMinutes(1);
    /** How many clients' failures are remembered at most; the oldest window is forgotten first. */
    static final int MAX_CLIENTS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(AccessGate.class);
    private static final String SCHEME = "bearer ";

    /** What a request may do. */
    public sealed interface Access {
        /** A valid credential holding the role. */
        record Granted(Credential credential) implements Access {
        }

        /** Refused with this status, reason and {@code WWW-Authenticate} (null when none). */
        record Refused(int status, String reason, String challenge) implements Access {
        }
    }

    private record Failures(Instant since, int count) {
    }

    private final Supplier<Credentials> credentials;
    private final Clock clock;
    private final int maxFailures;
    private final Map<String, Failures> failures = new LinkedHashMap<>();

    /** @param maxFailures wrong secrets a client may send within {@link #WINDOW} before it is held back */
    public AccessGate(Supplier<Credentials> credentials, Clock clock, int maxFailures) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxFailures = maxFailures;
    }

    /** The credentials in force now. */
    public Credentials credentials() {
        return credentials.get();
    }

    /**
     * Whether the request may act as {@code role}: 403 when no credential holds that role (that part is off), 429
     * when the client failed too often, 401 without or with a wrong secret, 403 with a credential lacking the role.
     *
     * @param what names the part asked for in the logs ("compatibility entry", "reference read", ...)
     */
    public Access check(HttpExchange exchange, Role role, String what) {
        var in = credentials.get();
        if (!in.anyMay(role)) {
            return new Access.Refused(403, what + " is off: no credential has the role " + role.wireName()
                    + " (" + Keys.HTTP_CREDENTIALS_FILE + ", docs/operations.md)", null);
        }
        var client = client(exchange);
        var presented = bearer(exchange.getRequestHeaders().getFirst("Authorization"));
        if (presented == null) {
            return new Access.Refused(401, "authentication required: send Authorization: Bearer <secret>",
                    "Bearer realm=\"msgx\"");
        }
        return judge(in, presented, client, role, what);
    }

    /** The credential a bearer secret names, whatever its roles; empty without one or with a wrong one (counted). */
    public Optional<Credential> identify(HttpExchange exchange) {
        var presented = bearer(exchange.getRequestHeaders().getFirst("Authorization"));
        if (presented == null) {
            return Optional.empty();
        }
        return judge(credentials.get(), presented, client(exchange), null, "identification")
                instanceof Access.Granted granted ? Optional.of(granted.credential()) : Optional.empty();
    }

    /**
     * The console's login: the secret typed into its form, from {@code client}, for {@code role}.
     */
    public Access login(String presented, String client, Role role) {
        if (presented == null || presented.isBlank()) {
            return new Access.Refused(401, "give your secret", null);
        }
        return judge(credentials.get(), presented.strip(), client, role, "console login");
    }

    private Access judge(Credentials in, String presented, String client, Role role, String what) {
        var now = clock.instant();
        synchronized (failures) {
            var failed = failures.get(client);
            if (failed != null && failed.count() >= maxFailures && now.isBefore(failed.since().plus(WINDOW))) {
                failures.put(client, new Failures(failed.since(), failed.count() + 1));
                return new Access.Refused(429, "too many failed attempts from " + client + "; wait "
                        + Duration.between(now, failed.since().plus(WINDOW)).toSeconds() + " s", null);
            }
        }
        var found = in.bySecret(presented);
        if (found.isEmpty()) {
            failed(client, now, what);
            return new Access.Refused(401, "the secret is not valid", "Bearer realm=\"msgx\", error=\"invalid_token\"");
        }
        var credential = found.get();
        if (role != null && !credential.may(role)) {
            LOG.warn("AUDIT {} from {} refused (403): credential '{}' lacks the role {}", what, client,
                    credential.name(), role.wireName());
            return new Access.Refused(403, "credential '" + credential.name() + "' lacks the role " + role.wireName(),
                    null);
        }
        return new Access.Granted(credential);
    }

    private void failed(String client, Instant now, String what) {
        Failures next;
        synchronized (failures) {
            var before = failures.remove(client);
            next = before == null || !now.isBefore(before.since().plus(WINDOW)) ? new Failures(now, 1)
                    : new Failures(before.since(), before.count() + 1);
            failures.put(client, next);
            var oldest = failures.keySet().iterator();
            while (failures.size() > MAX_CLIENTS && oldest.hasNext()) {
                oldest.next();
                oldest.remove();
            }
        }
        if (next.count() == 1) {
            LOG.warn("AUDIT {} from {} refused (401): a wrong secret", what, client);
        } else if (next.count() == maxFailures) {
            LOG.warn("AUDIT {} from {} refused (401): {} wrong secrets since {}; this client is answered 429 until {}",
                    what, client, next.count(), next.since(), next.since().plus(WINDOW));
        }
    }

    /** The client's address as logged and counted. */
    public static String client(HttpExchange exchange) {
        var remote = exchange.getRemoteAddress();
        return remote == null || remote.getAddress() == null ? "unknown" : remote.getAddress().getHostAddress();
    }

    private static String bearer(String authorization) {
        if (authorization == null || authorization.length() <= SCHEME.length()
                || !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)) {
            return null;
        }
        var secret = authorization.substring(SCHEME.length()).strip();
        return secret.isEmpty() ? null : secret;
    }

    /** Answer a refusal as JSON, without reading the body. */
    static void refuse(HttpExchange exchange, Access.Refused refused) throws java.io.IOException {
        if (refused.challenge() != null) {
            exchange.getResponseHeaders().set("WWW-Authenticate", refused.challenge());
        }
        if (refused.status() == 429) {
            exchange.getResponseHeaders().set("Retry-After", Long.toString(WINDOW.toSeconds()));
        }
        Endpoint.refuseUnread(exchange, refused.status(), refused.reason());
    }

    @Override
    public String toString() {
        return credentials.get().toString();
    }
}
