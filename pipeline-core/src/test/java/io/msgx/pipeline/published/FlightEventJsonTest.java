package io.msgx.pipeline.published;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.domain.engine.ChangeType;
import io.msgx.domain.engine.FlightEvent;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.SisTime;
import io.msgx.pipeline.codec.NestedItems;
import io.msgx.pipeline.testing.PublishedContract;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.store.FlightSamples.DAY;
import static io.msgx.pipeline.store.FlightSamples.child;
import static io.msgx.pipeline.store.FlightSamples.everything;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;

/** The JSON values of docs/consumers.md, field by field and in their order, every value typed by its field's kind. */
class FlightEventJsonTest {

    private static final Instant AT = Instant.parse("2024-03-11T08:30:00Z");
    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");
    private static final ChangeCause CAUSE = new ChangeCause(ChangeCause.Origin.AODB, 77, "SCHD", "DNLD",
            LocalDateTime.of(2024, 3, 11, 16, 29, 58));
    private final ObjectMapper mapper = new ObjectMapper();
    private final FlightEventJson json = new FlightEventJson(SHANGHAI);

    @Test
    void aProjectionCarriesTheStateEveryFieldByCodeEveryListInOrderAndTheMastersMafl() throws Exception {
        var flight = everything("1001", "900");
        var text = json.state(flight, List.of(new MaflEntry(FlightId.of("1002"), "MU5101")), CAUSE, AT);

        var expectedKeys = new ArrayList<>(List.of("flid", "stateVersion", "updatedAt", "msgId", "aodbSentAt",
                "operationDay", "state"));
        for (var field : FlightField.values()) {
            expectedKeys.add(field.code());
        }
        for (var list : FlightList.values()) {
            expectedKeys.add(list.code());
        }
        expectedKeys.add("untypedValues");
        expectedKeys.add("mafl");
        assertThat(rootKeys(text)).as("each key once, in this order").containsExactlyElementsOf(expectedKeys);

        var root = mapper.readTree(text);
        assertThat(root.get("flid").asText()).isEqualTo("1001");
        assertThat(root.get("stateVersion").asLong()).isEqualTo(3);
        assertThat(root.get("updatedAt").asText()).isEqualTo("2024-03-11T08:30:00Z");
        assertThat(root.get("msgId").asLong()).isEqualTo(77);
        assertThat(root.get("aodbSentAt").asText()).isEqualTo("2024-03-11T16:29:58+08:00");
        assertThat(root.get("operationDay").asText()).isEqualTo("2024-03-11");
        assertThat(root.get("state").asText()).isEqualTo("ACTIVE");
        var untyped = new LinkedHashMap<String, String>();
        for (var field : FlightField.values()) {
            var sent = flight.fields().valueOf(field);
            var expected = typed(field.kind(), sent);
            assertThat(root.get(field.code()).toString()).as(field.code()).isEqualTo(expected.toString());
            if (expected.isNull()) {
                untyped.put(field.code(), sent);
            }
        }
        assertThat(mapper.convertValue(root.get("untypedValues"), Map.class))
                .as("every value not of its kind, as sent, nothing else").isEqualTo(untyped);
        for (var list : FlightList.values()) {
            var items = flight.lists().get(list);
            JsonNode array = root.get(list.code());
            assertThat(array).hasSize(items.size());
            for (int i = 0; i < items.size(); i++) {
                var node = array.get(i);
                assertThat(node.get("ordinal").asInt()).isEqualTo(i + 1);
                var seq = items.get(i).sourceSeq();
                assertThat(node.get("sourceSeq").isNull()).isEqualTo(seq == null);
                if (seq != null) {
                    assertThat(node.get("sourceSeq").asInt()).isEqualTo(seq);
                }
                var untypedOfItem = new LinkedHashMap<String, String>();
                items.get(i).values().forEach((code, value) -> {
                    if (list.nestedItems().containsKey(code)) {
                        assertThat(node.get(code).toString()).as("%s %s: nested items as an array of objects", list, code)
                                .isEqualTo(value);
                        return;
                    }
                    var expected = typed(FlightList.itemKind(code), value);
                    assertThat(node.get(code).toString()).as("%s %s", list, code).isEqualTo(expected.toString());
                    if (expected.isNull()) {
                        untypedOfItem.put(code, value);
                    }
                });
                if (untypedOfItem.isEmpty()) {
                    assertThat(node.has("untypedValues")).as("%s item %d has every value typed", list, i + 1).isFalse();
                } else {
                    assertThat(mapper.convertValue(node.get("untypedValues"), Map.class)).isEqualTo(untypedOfItem);
                }
                assertThat(node.size()).isEqualTo(2 + items.get(i).values().size() + (untypedOfItem.isEmpty() ? 0 : 1));
            }
        }
        assertThat(root.get("mafl").toString()).isEqualTo("[{\"flid\":\"1002\",\"flno\":\"MU5101\"}]");
    }

    @Test
    void aChildNamesItsMasterAndCarrierAndAFlightWithoutValuesHasNulls() throws Exception {
        var childRoot = mapper.readTree(json.state(child("1002", "900"), null, CAUSE, AT));
        assertThat(childRoot.get("maid").asText()).isEqualTo("900");
        assertThat(childRoot.get("csop").isNull()).isTrue();
        assertThat(childRoot.has("mafl")).isFalse();

        var plainText = json.state(plain("1003"), null, null, AT);
        var plainRoot = mapper.readTree(plainText);
        assertThat(plainRoot.get("FLNO").asText()).isEqualTo("CA1003");
        assertThat(plainRoot.get("STND").isNull()).isTrue();
        assertThat(plainRoot.get(FlightList.values()[0].code()).isEmpty()).isTrue();
        assertThat(plainRoot.has("maid")).isFalse();
        assertThat(plainRoot.get("msgId").isNull()).as("a state shown with no change at hand names no message").isTrue();
        assertThat(plainRoot.get("untypedValues").isEmpty()).isTrue();
        assertThat(rootKeys(plainText)).doesNotHaveDuplicates();
    }

    @Test
    void aNotificationIsItsFieldsInOrderAndGetsItsEventIdFirst() {
        var event = new FlightEvent(FlightId.of("1001"), 4, ChangeType.UPSERT, List.of("STND", "GTDT"));

        var text = json.notification(event, CAUSE, AT);

        assertThat(text).isEqualTo("{\"flid\":\"1001\",\"stateVersion\":4,\"updatedAt\":\"2024-03-11T08:30:00Z\","
                + "\"msgId\":77,\"aodbSentAt\":\"2024-03-11T16:29:58+08:00\",\"cause\":\"AODB\",\"type\":\"SCHD\","
                + "\"styp\":\"DNLD\",\"change\":\"" + ChangeType.UPSERT.name() + "\",\"changed\":[\"STND\",\"GTDT\"]}");
        assertThat(FlightEventJson.withEventId(text, 9)).startsWith("{\"eventId\":9,\"flid\":\"1001\"");
    }

    @Test
    void aValueNotOfItsKindIsPublishedAsNullAndAsSentInUntypedValuesNeverDropped() throws Exception {
        var fields = new EnumMap<FlightField, String>(FlightField.class);
        fields.put(FlightField.FLNO, "CA1405");
        fields.put(FlightField.ESTT, "TBA");
        fields.put(FlightField.ACTT, "11MAR24");
        fields.put(FlightField.MAXP, "n/a");
        fields.put(FlightField.LBWT, "12.50");
        var lists = new EnumMap<FlightList, List<ListItem>>(FlightList.class);
        lists.put(FlightList.GTDT, List.of(ListItem.of(1, Map.of("GATE", "G33", "PGOT", "soon", "PGCT", "11MAR240820"))));
        lists.put(FlightList.VIPF, List.of(ListItem.of(1, Map.of("VPCD", "V1",
                "VIPT", NestedItems.write(List.of(Map.of("VSCD", "LOUNGE", "VTQY", "two", "VTST", "11MAR240700")))))));
        var flight = new FlightState(FlightId.of("1001"), FlightStatus.ACTIVE, 2, DAY, 1,
                FlightFields.of(fields), FlightLists.of(lists));

        var text = json.state(flight, null, CAUSE, AT);
        var root = mapper.readTree(text);

        assertThat(root.get("ESTT").isNull()).isTrue();
        assertThat(root.get("MAXP").isNull()).isTrue();
        assertThat(root.get("untypedValues").toString()).isEqualTo("{\"MAXP\":\"n/a\",\"ESTT\":\"TBA\"}");
        assertThat(root.get("ACTT").asText()).as("a date alone is the start of that day").isEqualTo("2024-03-11T00:00:00+08:00");
        assertThat(root.get("LBWT").isNumber()).isTrue();
        assertThat(text).as("the scale the AODB sent").contains("\"LBWT\":12.50,");
        var gate = root.get("GTDT").get(0);
        assertThat(gate.get("PGOT").isNull()).isTrue();
        assertThat(gate.get("PGCT").asText()).isEqualTo("2024-03-11T08:20:00+08:00");
        assertThat(gate.get("untypedValues").toString()).isEqualTo("{\"PGOT\":\"soon\"}");
        var service = root.get("VIPF").get(0).get("VIPT").get(0);
        assertThat(service.get("VTST").asText()).isEqualTo("2024-03-11T07:00:00+08:00");
        assertThat(service.get("VTQY").isNull()).isTrue();
        assertThat(service.get("untypedValues").toString()).isEqualTo("{\"VTQY\":\"two\"}");
    }

    @Test
    void aRetentionDeletionSaysSoAndNamesNoMessage() throws Exception {
        var event = new FlightEvent(FlightId.of("1001"), 5, ChangeType.DELETE, List.of());

        var root = mapper.readTree(json.notification(event, ChangeCause.RETENTION, AT));

        assertThat(root.get("cause").asText()).isEqualTo("RETENTION");
        assertThat(root.get("msgId").asLong()).isZero();
        assertThat(root.get("aodbSentAt").isNull()).isTrue();
        assertThat(root.get("type").asText() + "/" + root.get("styp").asText()).isEqualTo("LIFECYCLE/CLEANUP");
        assertThat(root.get("change").asText()).isEqualTo("DELETE");
    }

    @Test
    void numbersAreJsonNumbersAsSentAndAnythingElseIsKeptAsSent() {
        assertThat(FlightEventJson.number("180")).isEqualTo("180");
        assertThat(FlightEventJson.number("007")).as("JSON has no leading zeros").isEqualTo("7");
        assertThat(FlightEventJson.number("12.50")).as("the scale the AODB sent").isEqualTo("12.50");
        assertThat(FlightEventJson.number("-3")).isEqualTo("-3");
        assertThat(FlightEventJson.number("+3")).isEqualTo("3");
        for (var notANumber : List.of("", "n/a", "1e3", "1,5", "5.", ".5", "1.2.3", "-", "12 ")) {
            assertThat(FlightEventJson.number(notANumber)).as("'%s'", notANumber).isNull();
        }
    }

    @Test
    void timesCarryTheAirportsOffsetAtThatTimeEvenAcrossDaylightSaving() {
        assertThat(json.time(LocalDateTime.of(2024, 3, 11, 8, 35))).isEqualTo("2024-03-11T08:35:00+08:00");
        var berlin = new FlightEventJson(ZoneId.of("Europe/Berlin"));
        assertThat(berlin.time(LocalDateTime.of(2024, 1, 15, 9, 5))).isEqualTo("2024-01-15T09:05:00+01:00");
        assertThat(berlin.time(LocalDateTime.of(2024, 7, 15, 9, 5))).isEqualTo("2024-07-15T09:05:00+02:00");
        assertThat(berlin.time(LocalDateTime.of(2024, 3, 31, 2, 30))).as("the spring gap: moved forward by the gap")
                .isEqualTo("2024-03-31T03:30:00+02:00");
        assertThat(berlin.time(LocalDateTime.of(2024, 10, 27, 2, 30))).as("the autumn overlap: the earlier offset")
                .isEqualTo("2024-10-27T02:30:00+02:00");
        assertThat(new FlightEventJson(ZoneOffset.UTC).time(LocalDateTime.of(2024, 3, 11, 0, 0)))
                .isEqualTo("2024-03-11T00:00:00Z");
    }

    @Test
    void everyValueItWritesValidatesAgainstThePublishedSchemas() {
        var states = List.of(
                json.state(everything("1001", "900"), List.of(new MaflEntry(FlightId.of("1002"), "MU5101")), CAUSE, AT),
                json.state(child("1002", "900"), null, CAUSE, AT),
                json.state(plain("1003"), null, ChangeCause.RETENTION, AT));
        for (var state : states) {
            assertThat(PublishedContract.violations(PublishedContract.Topic.SCHD, state)).as(state).isEmpty();
        }
        for (var cause : List.of(CAUSE, ChangeCause.RETENTION)) {
            var change = FlightEventJson.withEventId(json.notification(
                    new FlightEvent(FlightId.of("1001"), 4, ChangeType.UPSERT, List.of("STND", "GTDT")), cause, AT), 9);
            assertThat(PublishedContract.violations(PublishedContract.Topic.MSG, change)).as(change).isEmpty();
        }
    }

    /**
     * What a value of {@code kind} sent as {@code text} is published as, by an oracle of its own: java.time's ISO
     * formatter for a time, BigDecimal for a number; null when it is not of its kind.
     */
    private JsonNode typed(FlightField.Kind kind, String text) {
        var nodes = mapper.getNodeFactory();
        if (text == null) {
            return nodes.nullNode();
        }
        return switch (kind) {
            case TIME -> SisTime.parse(text).<JsonNode>map(local -> nodes.textNode(local.atZone(SHANGHAI)
                    .toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))).orElse(nodes.nullNode());
            case NUMBER -> text.matches("[0-9]+(\\.[0-9]+)?") ? nodes.numberNode(new BigDecimal(text)) : nodes.nullNode();
            case TEXT, EXCEPTION -> nodes.textNode(text);
        };
    }

    private List<String> rootKeys(String text) throws Exception {
        var keys = new ArrayList<String>();
        try (JsonParser parser = mapper.getFactory().createParser(text)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            for (var token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                keys.add(parser.currentName());
                parser.nextToken();
                parser.skipChildren();
            }
        }
        return keys;
    }
}
