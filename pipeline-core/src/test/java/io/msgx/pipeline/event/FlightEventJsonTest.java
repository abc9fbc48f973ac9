package io.msgx.pipeline.event;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.domain.engine.ChangeType;
import io.msgx.domain.engine.FlightEvent;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.MaflEntry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.child;
import static io.msgx.pipeline.store.FlightSamples.everything;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;

/** The JSON values of sis-format §7, field by field and in their order. */
class FlightEventJsonTest {

    private static final Instant AT = Instant.parse("2024-03-11T08:30:00Z");
    private final ObjectMapper mapper = new ObjectMapper();
    private final FlightEventJson json = new FlightEventJson();

    @Test
    void aProjectionCarriesTheStateEveryFieldByCodeEveryListInOrderAndTheMastersMafl() throws Exception {
        var flight = everything("1001", "900");
        var text = json.state(flight, List.of(new MaflEntry(FlightId.of("1002"), "MU5101")), AT);

        var expectedKeys = new ArrayList<>(List.of("flid", "stateVersion", "updatedAt", "operationDay", "state"));
        for (var field : FlightField.values()) {
            expectedKeys.add(field.code());
        }
        for (var list : FlightList.values()) {
            expectedKeys.add(list.code());
        }
        expectedKeys.add("mafl");
        assertThat(rootKeys(text)).as("each key once, in this order").containsExactlyElementsOf(expectedKeys);

        var root = mapper.readTree(text);
        assertThat(root.get("flid").asText()).isEqualTo("1001");
        assertThat(root.get("stateVersion").asLong()).isEqualTo(3);
        assertThat(root.get("updatedAt").asText()).isEqualTo("2024-03-11T08:30:00Z");
        assertThat(root.get("operationDay").asText()).isEqualTo("2024-03-11");
        assertThat(root.get("state").asText()).isEqualTo("ACTIVE");
        for (var field : FlightField.values()) {
            assertThat(root.get(field.code()).asText()).isEqualTo(flight.fields().valueOf(field));
        }
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
                items.get(i).values().forEach((code, value) -> assertThat(list.nestedItems().containsKey(code)
                        ? node.get(code).toString() : node.get(code).asText())
                        .as("%s %s: nested items as an array of objects, the rest as text", list, code).isEqualTo(value));
                assertThat(node.size()).isEqualTo(2 + items.get(i).values().size());
            }
        }
        assertThat(root.get("mafl").toString()).isEqualTo("[{\"flid\":\"1002\",\"flno\":\"MU5101\"}]");
    }

    @Test
    void aChildNamesItsMasterAndCarrierAndAFlightWithoutValuesHasNulls() throws Exception {
        var childRoot = mapper.readTree(json.state(child("1002", "900"), null, AT));
        assertThat(childRoot.get("maid").asText()).isEqualTo("900");
        assertThat(childRoot.get("csop").isNull()).isTrue();
        assertThat(childRoot.has("mafl")).isFalse();

        var plainText = json.state(plain("1003"), null, AT);
        var plainRoot = mapper.readTree(plainText);
        assertThat(plainRoot.get("FLNO").asText()).isEqualTo("CA1003");
        assertThat(plainRoot.get("STND").isNull()).isTrue();
        assertThat(plainRoot.get(FlightList.values()[0].code()).isEmpty()).isTrue();
        assertThat(plainRoot.has("maid")).isFalse();
        assertThat(rootKeys(plainText)).doesNotHaveDuplicates();
    }

    @Test
    void aNotificationIsItsFieldsInOrderAndGetsItsEventIdFirst() {
        var event = new FlightEvent(FlightId.of("1001"), 4, ChangeType.UPSERT, List.of("STND", "GTDT"));

        var text = json.notification(event, 77, "SCHD", "DNLD");

        assertThat(text).isEqualTo("{\"flid\":\"1001\",\"stateVersion\":4,\"msgId\":77,\"type\":\"SCHD\","
                + "\"styp\":\"DNLD\",\"change\":\"" + ChangeType.UPSERT.name() + "\",\"changed\":[\"STND\",\"GTDT\"]}");
        assertThat(FlightEventJson.withEventId(text, 9)).startsWith("{\"eventId\":9,\"flid\":\"1001\"");
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
