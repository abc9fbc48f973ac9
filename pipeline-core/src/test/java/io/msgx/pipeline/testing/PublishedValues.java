package io.msgx.pipeline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.flight.SisTime;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * What the AODB sent, as a published value carries it (docs/consumers.md, "Typed values"): a time as RFC 3339 with the
 * airport's offset, a number as a JSON number, text as text, and a value not of its field's kind as null with the text
 * in the object's {@code untypedValues}. An oracle of its own (java.time's ISO formatter, BigDecimal), not the writer's
 * code.
 */
public final class PublishedValues {

    private PublishedValues() {
    }

    /** The kind of a scalar code, or of an item field when {@code code} is none. */
    public static FlightField.Kind kindOf(String code) {
        return FlightField.byCode(code).map(FlightField::kind).orElseGet(() -> FlightList.itemKind(code));
    }

    /**
     * The value {@code object}'s field {@code code} carries, as the text that was sent: the typed value turned back
     * into what the AODB sent if {@code sent} was that value ({@code sent} itself then), the untyped text, or "" for
     * null. Compare the result with {@code sent}.
     */
    public static String asSent(JsonNode object, String code, String sent) {
        return asSent(object, code, sent, OperationDayRule.DEFAULT_ZONE);
    }

    /** {@link #asSent(JsonNode, String, String)} at an airport in {@code zone}. */
    public static String asSent(JsonNode object, String code, String sent, ZoneId zone) {
        var untyped = object.path("untypedValues").get(code);
        var value = object.get(code);
        if (untyped != null) {
            return value != null && value.isNull() ? untyped.asText() : "<" + code + " is " + value + " and untyped>";
        }
        if (value == null || value.isNull()) {
            return "";
        }
        return switch (kindOf(code)) {
            case TIME -> SisTime.parse(sent).filter(time -> time.atZone(zone).toOffsetDateTime()
                    .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME).equals(value.asText())).map(time -> sent)
                    .orElse(value.asText());
            case NUMBER -> value.isNumber() && sent.trim().matches("[+-]?[0-9]+(\\.[0-9]+)?")
                    && new BigDecimal(sent.trim()).compareTo(value.decimalValue()) == 0 ? sent : value.toString();
            case TEXT, EXCEPTION -> value.asText();
        };
    }
}
