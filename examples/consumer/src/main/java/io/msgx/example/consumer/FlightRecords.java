package io.msgx.example.consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

/**
 * How the fields this example needs are read from a record, as docs/consumers.md ("Headers", "Values") describes
 * them. Keys, values and header values are UTF-8 text; values are JSON objects. Unknown fields and headers are
 * ignored: the contract may add them within version 1 ("Evolution").
 */
final class FlightRecords {

    /** The flight's version; on a {@code schd} tombstone, the version that deleted the flight. */
    static final String STATE_VERSION_HEADER = "msgx_stateversion";

    private static final ObjectMapper JSON = new ObjectMapper();

    private FlightRecords() {
    }

    /** The record's value as a JSON object; null for a tombstone. */
    static ObjectNode value(ConsumerRecord<String, String> record) {
        if (record.value() == null) {
            return null;
        }
        try {
            var tree = JSON.readTree(record.value());
            if (!(tree instanceof ObjectNode object)) {
                throw new IllegalArgumentException("the value is no JSON object");
            }
            return object;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IllegalArgumentException("unreadable value at " + record.topic() + "-" + record.partition() + "@"
                    + record.offset() + " (key " + record.key() + "): " + e.getMessage(), e);
        }
    }

    /** The {@code msgx_stateversion} header, which every flight record carries, tombstones included. */
    static long stateVersionHeader(ConsumerRecord<String, String> record) {
        var header = record.headers().lastHeader(STATE_VERSION_HEADER);
        if (header == null || header.value() == null) {
            throw new IllegalArgumentException("a " + record.topic() + " record (key " + record.key() + ") without its "
                    + STATE_VERSION_HEADER + " header");
        }
        return Long.parseLong(new String(header.value(), StandardCharsets.UTF_8).trim());
    }

    /** The {@code stateVersion} of a value (on both {@code msg} and {@code schd}). */
    static long stateVersion(JsonNode value) {
        var version = value.get("stateVersion");
        if (version == null || !version.canConvertToLong()) {
            throw new IllegalArgumentException("a flight value without a numeric stateVersion: " + value);
        }
        return version.asLong();
    }

    /** A {@code msg} value as the change log keeps it. */
    static ChangeLog.Change change(String flid, JsonNode value) {
        var changed = new ArrayList<String>();
        value.path("changed").forEach(code -> changed.add(code.asText()));
        var cause = value.path("cause");
        return new ChangeLog.Change(flid, stateVersion(value), value.path("change").asText(null), changed,
                cause.isTextual() ? cause.asText() : null);
    }
}
