package io.msgx.pipeline.event;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightEvent;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.codec.MessageMeta;

import io.msgx.domain.flight.MaflEntry;

import java.time.Instant;
import java.util.List;

/**
 * The JSON values published on Kafka (sis-format §7), built when the change commits and stored in the outbox
 * so that delivery sends exactly what was decided.
 *
 * <p><b>schd</b> (full state): {@code flid}, {@code stateVersion}, {@code updatedAt}, {@code operationDay},
 * {@code state}, every scalar by its protocol code (null when the flight has no value), every list by its
 * code as an array of {@code {ordinal, sourceSeq, <item fields>}} in {@code ORDINAL} order; on a master
 * {@code mafl} = {@code [{flid, flno}]}; on a code-share child {@code maid}, {@code csop}, {@code csft} and no
 * {@code mafl}. A deleted flight is a tombstone (null value), so no projection is built for it.
 *
 * <p><b>msg</b> (change notification): {@code flid}, {@code stateVersion}, {@code msgId}, {@code type},
 * {@code styp}, {@code change}, {@code changed}. The {@code eventId} is the outbox row's ID, assigned by the
 * store when the row is written, and is put first in the object when the event is delivered
 * ({@link #withEventId}).
 */
public final class FlightEventJson {

    private final ObjectMapper mapper = new ObjectMapper();

    /** The {@code schd} value of a changed, non-deleted flight. */
    public String projection(FlightChange change, Instant updatedAt) {
        return state(change.after(), change.mafl(), updatedAt);
    }

    /**
     * A flight's full state in the projection's shape; {@code mafl} null for a flight that publishes none.
     * Also the snapshot the flight history store keeps.
     */
    public String state(FlightState flight, List<MaflEntry> mafl, Instant updatedAt) {
        ObjectNode root = mapper.createObjectNode();
        root.put("flid", flight.flid().value());
        root.put("stateVersion", flight.stateVersion());
        root.put("updatedAt", updatedAt.toString());
        root.put("operationDay", flight.operationDay() == null ? null : flight.operationDay().toString());
        root.put("state", flight.status().name());
        for (var field : FlightField.values()) {
            root.put(field.code(), flight.fields().valueOf(field));
        }
        for (var list : FlightList.values()) {
            var array = root.putArray(list.code());
            var items = flight.lists().get(list);
            for (int i = 0; i < items.size(); i++) {
                var node = array.addObject();
                node.put("ordinal", i + 1);
                node.put("sourceSeq", items.get(i).sourceSeq());
                items.get(i).values().forEach(node::put);
            }
        }
        if (mafl != null) {
            var entries = root.putArray("mafl");
            mafl.forEach(entry -> entries.addObject().put("flid", entry.flid().value()).put("flno", entry.flno()));
        } else if (flight.masterId().isPresent() || flight.fields().valueOf(FlightField.MAID) != null) {
            root.put("maid", flight.fields().valueOf(FlightField.MAID));
            root.put("csop", flight.fields().valueOf(FlightField.CSOP));
            root.put("csft", flight.fields().valueOf(FlightField.CSFT));
        }
        return write(root);
    }

    /** The {@code msg} value of one event caused by a message, without its {@code eventId}. */
    public String notification(FlightEvent event, long msgId, MessageMeta meta) {
        return notification(event, msgId, meta.type(), meta.subtype());
    }

    /**
     * The {@code msg} value of one event, without its {@code eventId}; {@code type}/{@code styp} name the cause
     * (the message's, or {@code LIFECYCLE}/{@code CLEANUP} for the history cleanup, whose {@code msgId} is 0).
     */
    public String notification(FlightEvent event, long msgId, String type, String styp) {
        ObjectNode root = mapper.createObjectNode();
        root.put("flid", event.flid().value());
        root.put("stateVersion", event.stateVersion());
        root.put("msgId", msgId);
        root.put("type", type);
        root.put("styp", styp);
        root.put("change", event.change().name());
        var changed = root.putArray("changed");
        event.changed().forEach(changed::add);
        return write(root);
    }

    /** A stored notification with its {@code eventId} put first, as it is delivered. */
    public static String withEventId(String notification, long eventId) {
        if (!notification.startsWith("{")) {
            throw new IllegalArgumentException("a notification is a JSON object, got: " + notification);
        }
        return "{\"eventId\":" + eventId + (notification.equals("{}") ? "}" : "," + notification.substring(1));
    }

    private String write(ObjectNode node) {
        try {
            return mapper.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a tree of strings and numbers could not be written as JSON", e);
        }
    }
}
