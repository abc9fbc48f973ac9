package io.msgx.pipeline.published;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schema 2020-12 documents of what msgexchange publishes (docs/consumers.md): a {@code msg} value
 * ({@value #FLIGHT_CHANGE}), a {@code schd} value ({@value #FLIGHT_STATE}) and a {@code reference} value
 * ({@value #REFERENCE_RECORD}). The scalar and list parts are generated from the model ({@link FlightField} and its
 * kind, {@link FlightList} and {@link FlightList#itemKind}), so a change of the model shows as a change of the schemas;
 * the committed copies in {@code docs/schemas/} are compared with this output by the build (PublishedSchemasTest).
 *
 * <p>The text is stable: keys in a fixed order, two-space indents, {@code "key": value}, {@code \n} line ends and a
 * final newline. Unknown fields stay allowed ({@code additionalProperties} is not false): adding a field is a minor
 * change of the contract (consumers.md, Evolution).
 */
public final class PublishedSchemas {

    /** The contract version, the {@code v1} of every {@code ce_type}. */
    public static final int CONTRACT_VERSION = 1;

    public static final String FLIGHT_CHANGE = "flight-change.schema.json";
    public static final String FLIGHT_STATE = "flight-state.schema.json";
    public static final String REFERENCE_RECORD = "reference-record.schema.json";

    /** The dialect of every document. */
    public static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    /** The base of every {@code $id}: an identifier only, nothing is fetched from it. */
    public static final String ID_BASE = "https://msgx.io/schemas/";

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final ObjectWriter PRETTY = JSON.writer(new DefaultPrettyPrinter(
            Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
            .withObjectIndenter(new DefaultIndenter("  ", "\n"))
            .withArrayIndenter(new DefaultIndenter("  ", "\n")));

    private static final String TIME = "#/$defs/time";
    private static final String NUMBER = "#/$defs/number";
    private static final String TEXT = "#/$defs/text";
    private static final String UNTYPED_VALUES = "#/$defs/untypedValues";

    private PublishedSchemas() {
    }

    /** Every document by its file name, in the order of consumers.md's table. */
    public static Map<String, String> all() {
        var all = new LinkedHashMap<String, String>();
        all.put(FLIGHT_CHANGE, flightChange());
        all.put(FLIGHT_STATE, flightState());
        all.put(REFERENCE_RECORD, referenceRecord());
        return all;
    }

    /** A {@code msg} value: one change of one flight ({@code io.msgx.flight.changed.v1}). */
    public static String flightChange() {
        var schema = document(FLIGHT_CHANGE, "A change of one flight (msg topic, io.msgx.flight.changed.v1)",
                "One record per change of a flight, keyed by FLID; never a tombstone. See docs/consumers.md.");
        var properties = schema.putObject("properties");
        properties.set("eventId", integer("The outbox row; grows in commit order, across flights.", null));
        properties.set("flid", string("The flight (FLID), also the record's key."));
        properties.set("stateVersion", integer("The version this change made; a flight's versions only go up, by one"
                + " per change.", 1));
        properties.set("updatedAt", dateTime("When the change was committed (UTC); the same instant as ce_time."));
        properties.set("msgId", integer("The mailbox message (CMINMSGS_ID) that caused the change; 0 for a retention"
                + " deletion.", 0));
        properties.set("aodbSentAt", nullableDateTime("The AODB's own send time (DTTM) of that message, with the"
                + " airport's offset; null for a retention deletion."));
        properties.set("cause", enumOf("AODB: a message from the AODB; RETENTION: the history cleanup removed the"
                + " flight (docs/lifecycle.md).", "AODB", "RETENTION"));
        properties.set("type", string("The message's TYPE; LIFECYCLE for a retention deletion."));
        properties.set("styp", string("The message's STYP; CLEANUP for a retention deletion."));
        properties.set("change", enumOf("What happened to the flight.", "UPSERT", "DELETE"));
        var changed = properties.putObject("changed");
        changed.put("description", "The codes of the scalars and lists that changed: FlightField and FlightList codes"
                + " as in flight-state.schema.json (EXTENSIONS for the extension document). Any string, so that a new"
                + " code is a minor change.");
        changed.put("type", "array");
        changed.putObject("items").put("type", "string");
        required(schema, "eventId", "flid", "stateVersion", "updatedAt", "msgId", "aodbSentAt", "cause", "type", "styp",
                "change", "changed");
        return text(schema);
    }

    /** A {@code schd} value: the full state of a flight ({@code io.msgx.flight.state.v1}). */
    public static String flightState() {
        var schema = document(FLIGHT_STATE, "A flight's full state (schd topic, io.msgx.flight.state.v1)",
                "The whole flight as it stands after version stateVersion, keyed by FLID; a deleted flight is a"
                        + " tombstone (null value). Times are RFC 3339 with the airport's offset, numbers are JSON numbers,"
                        + " a value that is not of its field's type is null with its text in untypedValues."
                        + " See docs/consumers.md.");
        var properties = schema.putObject("properties");
        properties.set("flid", string("The flight (FLID), also the record's key."));
        properties.set("stateVersion", integer("The version after which the flight stands so.", 1));
        properties.set("updatedAt", dateTime("When this version was committed (UTC); the same instant as ce_time."));
        properties.set("msgId", integer("The mailbox message (CMINMSGS_ID) that made this version.", 0));
        properties.set("aodbSentAt", nullableDateTime("The AODB's own send time (DTTM) of that message, with the"
                + " airport's offset."));
        var operationDay = properties.putObject("operationDay");
        operationDay.put("description", "The operation day (yyyy-MM-dd), or null while no SODT gives one.");
        operationDay.set("type", types("string", "null"));
        operationDay.put("format", "date");
        var state = properties.putObject("state");
        state.put("description", "The flight's business state; a deleted flight is a tombstone, so always ACTIVE.");
        state.put("const", "ACTIVE");
        for (var field : FlightField.values()) {
            properties.set(field.code(), scalar(field));
        }
        for (var list : FlightList.values()) {
            properties.set(list.code(), list(list));
        }
        properties.set("untypedValues", ref(UNTYPED_VALUES, "The values that are not of their field's type, as sent,"
                + " by scalar code (the field itself is then null); empty when every value is typed."));
        var mafl = properties.putObject("mafl");
        mafl.put("description", "On a master flight only: its code-share children, sorted by flid.");
        mafl.put("type", "array");
        var maflEntry = mafl.putObject("items");
        maflEntry.put("type", "object");
        var maflProperties = maflEntry.putObject("properties");
        maflProperties.set("flid", string("The child's FLID."));
        maflProperties.set("flno", ref(TEXT, "The child's flight number (FLNO)."));
        required(maflEntry, "flid", "flno");
        properties.set("maid", ref(TEXT, "On a code-share child only: MAID, the master's FLID."));
        properties.set("csop", ref(TEXT, "On a code-share child only: CSOP."));
        properties.set("csft", ref(TEXT, "On a code-share child only: CSFT."));

        var required = new ArrayList<>(List.of("flid", "stateVersion", "updatedAt", "msgId", "aodbSentAt",
                "operationDay", "state"));
        for (var field : FlightField.values()) {
            required.add(field.code());
        }
        for (var list : FlightList.values()) {
            required.add(list.code());
        }
        required.add("untypedValues");
        required(schema, required.toArray(String[]::new));

        var defs = schema.putObject("$defs");
        var time = defs.putObject("time");
        time.put("description", "A time: RFC 3339 with the airport's offset, seconds included, or null.");
        time.set("type", types("string", "null"));
        time.put("format", "date-time");
        var number = defs.putObject("number");
        number.put("description", "A number as the AODB sent it (12.50 stays 12.50), or null.");
        number.set("type", types("number", "null"));
        var text = defs.putObject("text");
        text.put("description", "Text as sent (trimmed), or null.");
        text.set("type", types("string", "null"));
        var untyped = defs.putObject("untypedValues");
        untyped.put("description", "Text as sent of values that are not of their field's type, by field code.");
        untyped.put("type", "object");
        untyped.putObject("additionalProperties").put("type", "string");
        for (var list : FlightList.values()) {
            defs.set(itemName(list), item(list));
            for (var nested : list.nestedItems().entrySet()) {
                defs.set(itemName(list) + "-" + nested.getKey(), subItem(list, nested.getKey(), nested.getValue()));
            }
        }
        return text(schema);
    }

    /** A {@code reference} value, and the answer of {@code GET /reference/{type}/{key}}. */
    public static String referenceRecord() {
        var schema = document(REFERENCE_RECORD, "One reference record (reference topic, io.msgx.reference.record.v1)",
                "One record of reference data, keyed RTYPE:RKEY; a removed record is a tombstone (null value). Also the"
                        + " answer of GET /reference/{type}/{key}. See docs/consumers.md.");
        var properties = schema.putObject("properties");
        properties.set("rtype", string("The record's type (RTYPE), e.g. GLST."));
        properties.set("rkey", string("The record's key (RKEY) within its type."));
        var record = properties.putObject("record");
        record.put("description", "The whole record as stored: every element the AODB sent; a value is a string, a"
                + " repeated element an array, a structured one an object.");
        record.put("type", "object");
        properties.set("msgId", integer("The mailbox message (CMINMSGS_ID) that changed the record.", null));
        properties.set("updatedAt", dateTime("When the record was written (UTC); the same instant as ce_time."));
        var dedupKey = properties.putObject("dedupKey");
        dedupKey.put("description", "RTYPE:RKEY@msgId, the same as ce_id: equal on a repeat of the same record.");
        dedupKey.put("type", "string");
        dedupKey.put("pattern", "^[^:]+:.+@[0-9]+$");
        required(schema, "rtype", "rkey", "record", "msgId", "updatedAt", "dedupKey");
        return text(schema);
    }

    private static ObjectNode document(String file, String title, String description) {
        var schema = JSON.createObjectNode();
        schema.put("$schema", DIALECT);
        schema.put("$id", ID_BASE + file);
        schema.put("title", title);
        schema.put("description", description);
        schema.put("x-msgx-contract-version", CONTRACT_VERSION);
        schema.put("type", "object");
        return schema;
    }

    private static ObjectNode scalar(FlightField field) {
        var description = sentence(FieldDescriptions.of(field)) + " Kind " + field.kind() + ".";
        var replacement = FieldDescriptions.replacementOf(field);
        if (replacement.isPresent()) {
            description += " Deprecated: published while contract version 1 lasts; read " + replacement.get() + ".";
        }
        var node = ref(definition(field.kind()), description);
        if (replacement.isPresent()) {
            node.put("deprecated", true);
        }
        return node;
    }

    private static ObjectNode list(FlightList list) {
        var node = JSON.createObjectNode();
        node.put("description", sentence(FieldDescriptions.of(list)) + " Items in ORDINAL order; empty when the flight has none.");
        node.put("type", "array");
        node.putObject("items").put("$ref", "#/$defs/" + itemName(list));
        return node;
    }

    private static ObjectNode item(FlightList list) {
        var node = JSON.createObjectNode();
        node.put("description", "One " + list.code() + " item. Its fields are optional: an item carries those it has.");
        node.put("type", "object");
        var properties = node.putObject("properties");
        var ordinal = properties.putObject("ordinal");
        ordinal.put("description", "The item's position in the list, from 1.");
        ordinal.put("type", "integer");
        ordinal.put("minimum", 1);
        var sourceSeq = properties.putObject("sourceSeq");
        sourceSeq.put("description", list.sequenceAttribute() == null
                ? "Always null: the list has no sequence attribute."
                : "The item's " + list.sequenceAttribute() + " as sent, or null when missing or not a number; may repeat.");
        sourceSeq.set("type", types("integer", "null"));
        for (var code : list.itemFields()) {
            var subFields = list.nestedItems().get(code);
            if (subFields != null) {
                var nested = properties.putObject(code);
                nested.put("description", sentence(FieldDescriptions.ofItemField(code)));
                nested.put("type", "array");
                nested.putObject("items").put("$ref", "#/$defs/" + itemName(list) + "-" + code);
            } else {
                properties.set(code, itemField(code));
            }
        }
        properties.set("untypedValues", ref(UNTYPED_VALUES, "Present only when one of the item's values is not of its"
                + " field's type: that value as sent, by item field code (the field itself is then null)."));
        required(node, "ordinal", "sourceSeq");
        return node;
    }

    private static ObjectNode subItem(FlightList list, String field, List<String> subFields) {
        var node = JSON.createObjectNode();
        node.put("description", "One " + field + " of a " + list.code() + " item. Its fields are optional.");
        node.put("type", "object");
        var properties = node.putObject("properties");
        for (var code : subFields) {
            properties.set(code, itemField(code));
        }
        properties.set("untypedValues", ref(UNTYPED_VALUES, "Present only when one of its values is not of its"
                + " field's type: that value as sent, by field code (the field itself is then null)."));
        return node;
    }

    private static ObjectNode itemField(String code) {
        var kind = FlightList.itemKind(code);
        var description = sentence(FieldDescriptions.ofItemField(code)) + " Kind " + kind + ".";
        var replacement = FieldDescriptions.replacementOfItemField(code);
        if (replacement.isPresent()) {
            description += " Deprecated: published while contract version 1 lasts; read " + replacement.get() + ".";
        }
        var node = ref(definition(kind), description);
        if (replacement.isPresent()) {
            node.put("deprecated", true);
        }
        return node;
    }

    private static String definition(FlightField.Kind kind) {
        return switch (kind) {
            case TIME -> TIME;
            case NUMBER -> NUMBER;
            case TEXT, EXCEPTION -> TEXT;
        };
    }

    /** {@code airline code} → {@code Airline code.} */
    private static String sentence(String words) {
        return Character.toUpperCase(words.charAt(0)) + words.substring(1) + ".";
    }

    private static String itemName(FlightList list) {
        return "item-" + list.code();
    }

    private static ObjectNode ref(String definition, String description) {
        var node = JSON.createObjectNode();
        node.put("$ref", definition);
        node.put("description", description);
        return node;
    }

    private static ObjectNode string(String description) {
        var node = JSON.createObjectNode();
        node.put("description", description);
        node.put("type", "string");
        return node;
    }

    private static ObjectNode integer(String description, Integer minimum) {
        var node = JSON.createObjectNode();
        node.put("description", description);
        node.put("type", "integer");
        if (minimum != null) {
            node.put("minimum", minimum);
        }
        return node;
    }

    private static ObjectNode dateTime(String description) {
        var node = string(description);
        node.put("format", "date-time");
        return node;
    }

    private static ObjectNode nullableDateTime(String description) {
        var node = JSON.createObjectNode();
        node.put("description", description);
        node.set("type", types("string", "null"));
        node.put("format", "date-time");
        return node;
    }

    private static ObjectNode enumOf(String description, String... values) {
        var node = JSON.createObjectNode();
        node.put("description", description);
        node.put("type", "string");
        var allowed = node.putArray("enum");
        for (var value : values) {
            allowed.add(value);
        }
        return node;
    }

    private static ArrayNode types(String... names) {
        var array = JSON.createArrayNode();
        for (var name : names) {
            array.add(name);
        }
        return array;
    }

    private static void required(ObjectNode schema, String... names) {
        var array = schema.putArray("required");
        for (var name : names) {
            array.add(name);
        }
    }

    private static String text(ObjectNode schema) {
        try {
            return PRETTY.writeValueAsString(schema) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a schema built in memory could not be written", e);
        }
    }
}
