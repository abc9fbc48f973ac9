package io.msgx.pipeline.published;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightEvent;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.SisTime;
import io.msgx.pipeline.codec.NestedItems;
import io.msgx.pipeline.record.OutboxEvent;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The JSON values published on Kafka (docs/consumers.md, whose schemas {@link PublishedSchemas} generates), built when
 * the change commits and stored in the outbox so that delivery sends exactly what was decided.
 *
 * <p><b>schd</b> (full state): {@code flid}, {@code stateVersion}, {@code updatedAt}, {@code msgId} and
 * {@code aodbSentAt} of the change's cause, {@code operationDay}, {@code state}, every scalar by its protocol code
 * (null when the flight has no value), every list by its code as an array of {@code {ordinal, sourceSeq, <item
 * fields>}} in {@code ORDINAL} order (a field of nested items, {@code VIPT} of {@code VIPF}, as an array of objects; the
 * extension document as {@code EXTENSIONS}, items of {@code PATH} and {@code VALUE}, D-120), {@code untypedValues}; on
 * a master {@code mafl} = {@code [{flid, flno}]}; on a code-share child {@code maid}, {@code csop}, {@code csft} and no
 * {@code mafl}. A deleted flight is a tombstone (null value), so no projection is built for it.
 *
 * <p><b>msg</b> (change notification): {@code flid}, {@code stateVersion}, {@code updatedAt}, {@code msgId},
 * {@code aodbSentAt}, {@code cause}, {@code type}, {@code styp}, {@code change}, {@code changed}. The {@code eventId}
 * is the outbox row's ID, assigned by the store when the row is written, and is put first in the object when the event
 * is delivered ({@link #withEventId}).
 *
 * <p><b>Typed values</b> (D-122): a value of a TIME field is published as an RFC 3339 time with the airport's offset,
 * a NUMBER field's as a JSON number; a value that is not of its field's type is published as null, and as sent in the
 * object's {@code untypedValues} under its code. The store keeps every value as sent.
 */
public final class FlightEventJson {

    /**
     * Writes straight to text, one field after the other: building a Jackson tree first and serialising it was two
     * passes and an object per value, 13 % of the pump's CPU in the bench (JFR, issue 9).
     */
    private static final JsonFactory JSON = new JsonFactory();

    private final ZoneId airportZone;

    /** Values whose times are airport local time in {@code airportZone} ({@code msgx.airport.zone}). */
    public FlightEventJson(ZoneId airportZone) {
        this.airportZone = Objects.requireNonNull(airportZone, "airportZone");
    }

    /** The {@code schd} value of a changed, non-deleted flight. */
    public String projection(FlightChange change, ChangeCause cause, Instant updatedAt) {
        return state(change.after(), change.mafl(), cause, updatedAt);
    }

    /**
     * A flight's full state in the projection's shape; {@code mafl} null for a flight that publishes none; {@code cause}
     * null when no change is at hand (a state shown to an operator): its {@code msgId} and {@code aodbSentAt} are null.
     * Also the snapshot the flight history store keeps.
     */
    public String state(FlightState flight, List<MaflEntry> mafl, ChangeCause cause, Instant updatedAt) {
        return write(4096, json -> {
            Map<String, String> untyped = null;
            json.writeStringField("flid", flight.flid().value());
            json.writeNumberField("stateVersion", flight.stateVersion());
            json.writeStringField("updatedAt", OutboxEvent.committedAt(updatedAt).toString());
            if (cause == null) {
                json.writeNullField("msgId");
                json.writeNullField("aodbSentAt");
            } else {
                json.writeNumberField("msgId", cause.msgId());
                json.writeStringField("aodbSentAt", time(cause.aodbSentAt()));
            }
            json.writeStringField("operationDay", flight.operationDay() == null ? null : flight.operationDay().toString());
            json.writeStringField("state", flight.status().name());
            for (var field : FlightField.values()) {
                untyped = typed(json, field.code(), field.kind(), flight.fields().valueOf(field), untyped);
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
                    Map<String, String> untypedOfItem = null;
                    for (var value : item.values().entrySet()) {
                        if (list.nestedItems().containsKey(value.getKey())) {
                            nested(json, value.getKey(), value.getValue());
                        } else {
                            untypedOfItem = typed(json, value.getKey(), FlightList.itemKind(value.getKey()),
                                    value.getValue(), untypedOfItem);
                        }
                    }
                    if (untypedOfItem != null) {
                        untypedValues(json, untypedOfItem);
                    }
                    json.writeEndObject();
                }
                json.writeEndArray();
            }
            untypedValues(json, untyped == null ? Map.of() : untyped);
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

    /**
     * Nested sub-items ({@code VIPT} of a {@code VIPF} record) as an array of objects, as they are stored (D-117), each
     * value typed as an item's, a sub-item's untyped values in its own {@code untypedValues}.
     */
    private void nested(JsonGenerator json, String name, String stored) throws IOException {
        json.writeArrayFieldStart(name);
        for (var subItem : NestedItems.read(stored)) {
            json.writeStartObject();
            Map<String, String> untyped = null;
            for (var value : subItem.entrySet()) {
                untyped = typed(json, value.getKey(), FlightList.itemKind(value.getKey()), value.getValue(), untyped);
            }
            if (untyped != null) {
                untypedValues(json, untyped);
            }
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    /**
     * Field {@code name} holding {@code text} as its {@code kind} is published: a time as RFC 3339 with the airport's
     * offset, a number as a JSON number, anything else as the text; a value that is not of its kind as null, put in
     * {@code untyped} as sent. Returns {@code untyped}, made when it is first needed (null until then: almost every
     * value is of its kind, and a flight has hundreds).
     */
    private Map<String, String> typed(JsonGenerator json, String name, FlightField.Kind kind, String text,
                                      Map<String, String> untyped) throws IOException {
        json.writeFieldName(name);
        if (text == null) {
            json.writeNull();
            return untyped;
        }
        String typed = switch (kind) {
            case TIME -> SisTime.parse(text).map(this::time).orElse(null);
            case NUMBER -> number(text);
            case TEXT, EXCEPTION -> text;
        };
        if (typed == null) {
            json.writeNull();
            var made = untyped == null ? new LinkedHashMap<String, String>() : untyped;
            made.put(name, text);
            return made;
        }
        if (kind == FlightField.Kind.NUMBER) {
            json.writeNumber(typed);
        } else {
            json.writeString(typed);
        }
        return untyped;
    }

    private static void untypedValues(JsonGenerator json, Map<String, String> untyped) throws IOException {
        json.writeObjectFieldStart("untypedValues");
        for (var value : untyped.entrySet()) {
            json.writeStringField(value.getKey(), value.getValue());
        }
        json.writeEndObject();
    }

    /**
     * The JSON number a count or measure's text names ({@code 007} → {@code 7}, {@code 12.50} → {@code 12.50}), or null
     * when it is not a plain decimal ({@code 1e3}, {@code n/a}, {@code 1,5}): digits, at most one point, an optional sign.
     */
    static String number(String text) {
        int digits = 0;
        boolean point = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
            } else if (c == '.' && !point && digits > 0 && i + 1 < text.length()) {
                point = true;
            } else if (!(i == 0 && (c == '-' || c == '+'))) {
                return null;
            }
        }
        return digits == 0 ? null : new BigDecimal(text).toPlainString();
    }

    /**
     * A local time of the airport as RFC 3339 with the airport's offset at that time, seconds included
     * ({@code 2024-03-11T08:35:00+08:00}); a time in a spring gap moves forward by the gap, one in the autumn overlap
     * takes the earlier offset (as {@link ZonedDateTime#of} resolves them). Null stays null.
     */
    String time(LocalDateTime local) {
        if (local == null) {
            return null;
        }
        var zoned = ZonedDateTime.of(local, airportZone);
        local = zoned.toLocalDateTime();
        var offset = zoned.getOffset();
        var text = new StringBuilder(25);
        int year = local.getYear();
        text.append(year);
        pad(text.append('-'), local.getMonthValue());
        pad(text.append('-'), local.getDayOfMonth());
        pad(text.append('T'), local.getHour());
        pad(text.append(':'), local.getMinute());
        pad(text.append(':'), local.getSecond());
        return text.append(offset.getId()).toString();
    }

    private static void pad(StringBuilder text, int twoDigits) {
        if (twoDigits < 10) {
            text.append('0');
        }
        text.append(twoDigits);
    }

    /** The {@code msg} value of one event, without its {@code eventId}. */
    public String notification(FlightEvent event, ChangeCause cause, Instant updatedAt) {
        return write(512, json -> {
            json.writeStringField("flid", event.flid().value());
            json.writeNumberField("stateVersion", event.stateVersion());
            json.writeStringField("updatedAt", OutboxEvent.committedAt(updatedAt).toString());
            json.writeNumberField("msgId", cause.msgId());
            json.writeStringField("aodbSentAt", time(cause.aodbSentAt()));
            json.writeStringField("cause", cause.origin().name());
            json.writeStringField("type", cause.type());
            json.writeStringField("styp", cause.styp());
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
