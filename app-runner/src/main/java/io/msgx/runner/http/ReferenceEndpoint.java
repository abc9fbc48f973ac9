package io.msgx.runner.http;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.published.ReferenceEventJson;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * Reference data ({@code REF_MASTER}) for other airport services, read-only JSON:
 * <ul>
 *   <li>{@code GET /reference/{TYPE}/{KEY}} → 200 one record, 404 when there is none;</li>
 *   <li>{@code GET /reference/{TYPE}[?limit=N]} → 200 the type's records ordered by key, at most {@code N}
 *       (default {@value #DEFAULT_LIMIT}, at most {@value #MAX_LIMIT}), 404 when the type has none; 400 for a bad
 *       limit.</li>
 * </ul>
 * Type and key match exactly (case-sensitive, as stored). Every read needs a credential with the role
 * {@code reader} ({@link AccessGate}: 401, 403 or 429 otherwise); with no such credential configured the reads are
 * off (403), never open. 503 with {@code Retry-After} when the store is down.
 * A record is {@code {"type":..,"key":..,"fields":{..the record's document..},"msgId":..,"updatedAt":"<ISO>"}}:
 * {@code fields} is the whole record as stored (D-58: repeated elements as arrays, attributes as {@code "@NAME"},
 * children as objects); for a record of plain elements it is the flat object of texts it always was.
 */
final class ReferenceEndpoint extends Endpoint {

    static final String PATH = "/reference";
    static final int DEFAULT_LIMIT = 1000;
    static final int MAX_LIMIT = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(ReferenceEndpoint.class);

    private final ReferenceData references;
    private final AccessGate gate;

    /** @param references null when this runner has no store to read (every read 404); @param gate who may read */
    ReferenceEndpoint(ReferenceData references, AccessGate gate) {
        super(PATH, "GET");
        this.references = references;
        this.gate = gate;
    }

    /** {@code /reference/{TYPE}} and {@code /reference/{TYPE}/{KEY}}, no empty segment. */
    @Override
    boolean serves(String requestPath) {
        var segments = segments(requestPath);
        return segments != null;
    }

    @Override
    void serve(HttpExchange exchange) throws IOException {
        var access = gate.check(exchange, Role.READER, "reference read");
        if (access instanceof AccessGate.Access.Refused refused) {
            AccessGate.refuse(exchange, refused);
            return;
        }
        var segments = segments(exchange.getRequestURI().getPath());
        if (references == null) {
            send(exchange, 404, JSON, Json.error("this runner has no reference data store wired"));
            return;
        }
        try {
            if (segments.length == 2) {
                one(exchange, segments[0], segments[1]);
            } else {
                list(exchange, segments[0]);
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("Reference read: the store is unavailable (503): {}", e.getMessage());
            exchange.getResponseHeaders().set("Retry-After", "5");
            send(exchange, 503, JSON, Json.error("the store cannot be read just now; try again after 5 s"));
        }
    }

    private void one(HttpExchange exchange, String type, String key) throws IOException {
        var entry = references.find(type, key);
        if (entry.isEmpty()) {
            send(exchange, 404, JSON, Json.error("no " + type + " reference record with key " + key
                    + " (type and key are case-sensitive)"));
            return;
        }
        send(exchange, 200, JSON, toJson(entry.get()));
    }

    private void list(HttpExchange exchange, String type) throws IOException {
        int limit;
        try {
            limit = limit(exchange.getRequestURI().getQuery());
        } catch (IllegalArgumentException e) {
            send(exchange, 400, JSON, Json.error(e.getMessage()));
            return;
        }
        var entries = references.all(type, limit);
        if (entries.isEmpty()) {
            send(exchange, 404, JSON, Json.error("no " + type + " reference records (the type is case-sensitive;"
                    + " none was received yet, or it is not a configured reference type)"));
            return;
        }
        send(exchange, 200, JSON, Json.object().put("type", type).put("count", entries.size())
                .putRaw("records", Json.array(entries.stream().map(ReferenceEndpoint::toJson).toList())).toString());
    }

    /** The {@code limit} query parameter, {@value #DEFAULT_LIMIT} when absent. */
    static int limit(String query) {
        if (query == null || query.isEmpty()) {
            return DEFAULT_LIMIT;
        }
        for (var parameter : query.split("&")) {
            if (parameter.startsWith("limit=")) {
                var value = parameter.substring("limit=".length());
                try {
                    int limit = Integer.parseInt(value);
                    if (limit >= 1 && limit <= MAX_LIMIT) {
                        return limit;
                    }
                } catch (NumberFormatException ignored) {
                    // answered below
                }
                throw new IllegalArgumentException("limit must be a whole number from 1 to " + MAX_LIMIT + ", got '"
                        + value + "'");
            }
        }
        return DEFAULT_LIMIT;
    }

    static String toJson(ReferenceEntry entry) {
        return ReferenceEventJson.upsert(entry.type(), entry.key(), entry.document(), entry.msgId(), entry.updatedAt());
    }

    /** [TYPE] or [TYPE, KEY] of a path under {@value #PATH}, or null when it is not one. */
    private static String[] segments(String requestPath) {
        if (requestPath == null || !requestPath.startsWith(PATH + "/")) {
            return null;
        }
        var parts = requestPath.substring(PATH.length() + 1).split("/", -1);
        if (parts.length > 2 || List.of(parts).stream().anyMatch(String::isEmpty)) {
            return null;
        }
        return parts;
    }
}
