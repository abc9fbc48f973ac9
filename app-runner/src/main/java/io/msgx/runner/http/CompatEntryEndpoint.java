package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.pump.MessageLogContext;
import io.msgx.runner.config.Keys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * {@code POST /cminmsgs/send}: one SIS XML message (UTF-8) into the shared mailbox through {@link CompatEntry}.
 * Checked in this order, each failure answered before the body is read:
 * <ol>
 *   <li>entry off (no entry wired, or no credential has the role {@code injector}) → 403, saying what enables it;</li>
 *   <li>the client held back after too many wrong secrets → 429; {@code Authorization: Bearer <secret>} missing or
 *       wrong → 401 with {@code WWW-Authenticate: Bearer}; a credential without the role {@code injector} → 403
 *       ({@link AccessGate});</li>
 *   <li>a {@code Content-Type} that is neither XML nor text, or a charset other than UTF-8 → 415;</li>
 *   <li>a {@code Content-Length} above the limit → 413 (a body without a length is read up to the limit + 1);</li>
 * </ol>
 * then the body is read and submitted: 202 {@code {"msgId":..,"enqueued":..}}, 400 {@code {"error":..}} for a
 * message the codec refuses (or a body that is not UTF-8), 503 with {@code Retry-After: 5} when the mailbox
 * cannot be written. The secret and the body are never logged; the outcome, the message ID and the credential's name are.
 */
final class CompatEntryEndpoint extends Endpoint {

    static final String PATH = "/cminmsgs/send";
    static final int RETRY_AFTER_SECONDS = 5;

    private static final Logger LOG = LoggerFactory.getLogger(CompatEntryEndpoint.class);
    private static final Set<String> ACCEPTED_TYPES = Set.of("application/xml", "text/xml", "text/plain");
    private static final Set<String> ACCEPTED_CHARSETS = Set.of("utf-8", "utf8", "us-ascii");

    private final CompatEntry entry;
    private final AccessGate gate;
    private final long maxBodyBytes;

    /** @param entry null when this runner has no entry; @param gate who may send (role injector) */
    CompatEntryEndpoint(CompatEntry entry, AccessGate gate, long maxBodyBytes) {
        super(PATH, "POST");
        this.entry = entry;
        this.gate = gate;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        var remote = exchange.getRemoteAddress();
        if (entry == null) {
            var reason = "the compatibility entry is not wired in this runner: it needs a writable mailbox"
                    + " (msgx.mailbox.read-only=false)";
            LOG.warn("Compatibility entry: request from {} refused (403): {}", remote, reason);
            refuseUnread(exchange, 403, reason);
            return;
        }
        var access = gate.check(exchange, Role.INJECTOR, "compatibility entry");
        if (access instanceof AccessGate.Access.Refused refused) {
            AccessGate.refuse(exchange, refused);
            return;
        }
        var injector = ((AccessGate.Access.Granted) access).credential().name();
        var contentType = exchange.getRequestHeaders().getFirst("Content-Type");
        var typeProblem = contentTypeProblem(contentType);
        if (typeProblem != null) {
            LOG.warn("Compatibility entry: request from {} refused (415): {}", remote, typeProblem);
            refuseUnread(exchange, 415, typeProblem);
            return;
        }
        long declared = declaredLength(exchange);
        if (declared > maxBodyBytes) {
            LOG.warn("Compatibility entry: request from {} refused (413): {} bytes declared, limit {}", remote,
                    declared, maxBodyBytes);
            refuseUnread(exchange, 413, tooLarge());
            return;
        }
        byte[] body = exchange.getRequestBody().readNBytes((int) Math.min(maxBodyBytes + 1, declared < 0
                ? maxBodyBytes + 1 : declared));
        if (body.length > maxBodyBytes) {
            LOG.warn("Compatibility entry: request from {} refused (413): body above the limit of {} bytes",
                    remote, maxBodyBytes);
            refuseUnread(exchange, 413, tooLarge());
            return;
        }
        String xml;
        try {
            xml = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            LOG.warn("Compatibility entry: request from {} refused (400): body is not UTF-8", remote);
            send(exchange, 400, JSON, Json.error("the body is not valid UTF-8; send the SIS message as UTF-8"));
            return;
        }
        answer(exchange, entry.submit(xml), injector);
    }

    private void answer(HttpExchange exchange, CompatEntry.Outcome outcome, String injector) throws IOException {
        var remote = AccessGate.client(exchange) + " as '" + injector + "'";
        var reply = outcome.match(new CompatEntry.Outcome.Cases<Reply>() {
            @Override
            public Reply accepted(CompatEntry.Outcome.Accepted accepted) {
                try (var context = MessageLogContext.message(accepted.msgId())) {
                    LOG.info("Compatibility entry: message {} from {} accepted (202), enqueued={}", accepted.msgId(),
                            remote, accepted.enqueued());
                }
                return new Reply(202, Json.object().put("msgId", accepted.msgId())
                        .put("enqueued", accepted.enqueued()).toString());
            }

            @Override
            public Reply refused(CompatEntry.Outcome.Refused refused) {
                LOG.info("Compatibility entry: message from {} refused (400): {}", remote, refused.reason());
                return new Reply(400, Json.error(refused.reason()));
            }

            @Override
            public Reply unavailable(CompatEntry.Outcome.Unavailable unavailable) {
                LOG.warn("Compatibility entry: message from {} not accepted (503): the mailbox cannot be written",
                        remote);
                exchange.getResponseHeaders().set("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
                return new Reply(503, Json.error("the mailbox cannot be written just now; nothing was accepted;"
                        + " send the message again after " + RETRY_AFTER_SECONDS + " s"));
            }
        });
        send(exchange, reply.status(), JSON, reply.json());
    }

    /** The status and JSON body an outcome is answered with. */
    private record Reply(int status, String json) {
    }

    private String tooLarge() {
        return "the body is larger than " + maxBodyBytes + " bytes (" + Keys.HTTP_MAX_BODY + ")";
    }

    /** Null when acceptable: absent, XML or text, in UTF-8 (or ASCII). */
    static String contentTypeProblem(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return null;
        }
        var parts = contentType.split(";");
        var mediaType = parts[0].strip().toLowerCase(Locale.ROOT);
        if (!ACCEPTED_TYPES.contains(mediaType) && !mediaType.endsWith("+xml")) {
            return "Content-Type " + mediaType + " is not accepted; send application/xml (or text/xml, text/plain)";
        }
        for (int i = 1; i < parts.length; i++) {
            var parameter = parts[i].strip().toLowerCase(Locale.ROOT);
            if (parameter.startsWith("charset=")) {
                var charset = parameter.substring("charset=".length()).replace("\"", "").strip();
                if (!ACCEPTED_CHARSETS.contains(charset)) {
                    return "charset " + charset + " is not accepted; send the message as UTF-8";
                }
            }
        }
        return null;
    }

    /** The declared Content-Length, or -1 when there is none (chunked) or it cannot be read. */
    private static long declaredLength(HttpExchange exchange) {
        var header = exchange.getRequestHeaders().getFirst("Content-Length");
        if (header == null) {
            return -1;
        }
        try {
            return Long.parseLong(header.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Answer without reading the body; the connection is closed after, not drained for reuse. */
}
