package io.msgx.pipeline.event;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightEvent;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.NestedItems;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/**
 * The JSON values published on Kafka (sis-format §7), built when the change commits and stored in the outbox
 * so that delivery sends exactly what was decided.
 *
 * <p><b>schd</b> (full state): {@code flid}, {@code stateVersion}, {@code updatedAt}, {@code operationDay},
 * {@code state}, every scalar by its protocol code (null when the flight has no value), every list by its
 * code as an array of {@code {ordinal, sourceSeq, <item fields>}} in {@code ORDINAL} order (a field of nested items,
 * {@code VIPT} of {@code VIPF}, as an array of objects; the extension document as {@code EXTENSIONS}, items of
 * {@code PATH} and {@code VALUE}, D-120); on a master
 * {@code mafl} = {@code [{flid, flno}]}; on a code-share child {@code maid}, {@code csop}, {@code csft} and no
 * {@code mafl}. A deleted flight is a tombstone (null value), so no projection is built for it.
 *
 * <p><b>msg</b> (change notification): {@code flid}, {@code stateVersion}, {@code msgId}, {@code type},
 * {@code styp}, {@code change}, {@code changed}. The {@code eventId} is the outbox row's ID, assigned by the
 * store when the row is written, and is put first in the object when the event is delivered
 * ({@link #withEventId}).
 */
public final class FlightEventJson {

    /**
     * Writes straight to text, one field after the other: building a Jackson tree first and serialising it was two
     * passes and an object per value, 13 % of the pump's CPU in the bench (JFR, issue 9).
     */
    private static final JsonFactory JSON = new JsonFactory();

    /** The {@code schd} value of a changed, non-deleted flight. */
    public String projection(FlightChange change, Instant updatedAt) {
        return state(change.after(), change.mafl(), updatedAt);
    }

    /**
     * A flight's full state in the projection's shape; {@code mafl} null for a flight that publishes none.
     * Also the snapshot the flight history store keeps.
     */
    public String state(FlightState flight, List<MaflEntry> mafl, Instant updatedAt) {
        return write(4096, json -> {
            json.writeStringField("flid", flight.flid().value());
            json.writeNumberField("stateVersion", flight.stateVersion());
            json.writeStringField("updatedAt", updatedAt.toString());
            json.writeStringField("operationDay", flight.operationDay() == null ? null : flight.operationDay().toString());
            json.writeStringField("state", flight.status().name());
            for (var field : FlightField.values()) {
                json.writeStringField(field.code(), flight.fields().valueOf(field));
            }
            for (var list : FlightList.values()) {
                json.writeArrayFieldStart(list.code());
                var items = flight.lists().get(list);
                for (int i = 0; i < items.size(); i++) {
                    var item = items.get(i);
                    json.writeStartObject();
                    json.writeNumberField("ordinal", i + 1);
                    json.writeFieldName("sourceSeq");
                    if (item.sourceSeq() == null) {
                        json.writeNull();
                    } else {
                        json.writeNumber(item.sourceSeq());
                    }
                    for (var value : item.values().entrySet()) {
                        if (list.nestedItems().containsKey(value.getKey())) {
                            nested(json, value.getKey(), value.getValue());
                        } else {
                            json.writeStringField(value.getKey(), value.getValue());
                        }
                    }
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            if (mafl != null) {
                json.writeArrayFieldStart("mafl");
                for (var entry : mafl) {
                    json.writeStartObject();
                    json.writeStringField("flid", entry.flid().value());
                    json.writeStringField("flno", entry.flno());
                    json.writeEndObject();
                }
                json.writeEndArray();
            } else if (flight.masterId().isPresent() || flight.fields().valueOf(FlightField.MAID) != null) {
                json.writeStringField("maid", flight.fields().valueOf(FlightField.MAID));
                json.writeStringField("csop", flight.fields().valueOf(FlightField.CSOP));
                json.writeStringField("csft", flight.fields().valueOf(FlightField.CSFT));
            }
        });
    }

    /** Nested sub-items ({@code VIPT} of a {@code VIPF} record) as an array of objects, as they are stored (D-117). */
    private static void nested(JsonGenerator json, String name, String stored) throws IOException {
        json.writeArrayFieldStart(name);
        for (var subItem : NestedItems.read(stored)) {
            json.writeStartObject();
            for (var value : subItem.entrySet()) {
                json.writeStringField(value.getKey(), value.getValue());
            }
            json.writeEndObject();
        }
        json.writeEndArray();
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
        return write(512, json -> {
            json.writeStringField("flid", event.flid().value());
            json.writeNumberField("stateVersion", event.stateVersion());
            json.writeNumberField("msgId", msgId);
            json.writeStringField("type", type);
            json.writeStringField("styp", styp);
            json.writeStringField("change", event.change().name());
            json.writeArrayFieldStart("changed");
            for (var code : event.changed()) {
                json.writeString(code);
            }
            json.writeEndArray();
        });
    }

    /** A stored notification with its {@code eventId} put first, as it is delivered. */
    public static String withEventId(String notification, long eventId) {
        if (!notification.startsWith("{")) {
            throw new IllegalArgumentException("a notification is a JSON object, got: " + notification);
        }
        return "{\"eventId\":" + eventId + (notification.equals("{}") ? "}" : "," + notification.substring(1));
    }

    private interface Fields {
        void write(JsonGenerator json) throws IOException;
    }

    /** One JSON object whose fields {@code fields} writes, in a buffer of {@code expectedLength} characters to start. */
    private static String write(int expectedLength, Fields fields) {
        var text = new StringWriter(expectedLength);
        try (var json = JSON.createGenerator(text)) {
            json.writeStartObject();
            fields.write(json);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON into memory failed", e);
        }
        return text.toString();
    }
}
