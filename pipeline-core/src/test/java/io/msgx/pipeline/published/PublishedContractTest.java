package io.msgx.pipeline.published;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.pipeline.testing.PublishedContract;
import io.msgx.pipeline.testing.PublishedContract.Topic;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The validator of the consumer contract, on values and headers written by hand from docs/consumers.md. */
class PublishedContractTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String CHANGE = "{\"eventId\": 8812, \"flid\": \"1001\", \"stateVersion\": 7,"
            + " \"updatedAt\": \"2024-03-11T00:36:02.118Z\", \"msgId\": 55120, \"aodbSentAt\": \"2024-03-11T08:36:00+08:00\","
            + " \"cause\": \"AODB\", \"type\": \"FLOP\", \"styp\": \"GTDT\", \"change\": \"UPSERT\", \"changed\": [\"GTDT\"]}";

    private static final String RECORD = "{\"rtype\": \"GLST\", \"rkey\": \"G33\", \"record\": {\"GTNO\": \"G33\","
            + " \"GTTP\": \"C\", \"ZONE\": [\"A\", \"B\"]}, \"msgId\": 55002, \"updatedAt\": \"2024-03-11T00:10:04.551Z\","
            + " \"dedupKey\": \"GLST:G33@55002\"}";

    @Test
    void consumersMdsExamplesOfAChangeAndAReferenceRecordKeepTheContract() {
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE)).isEmpty();
        assertThat(PublishedContract.violations(Topic.REFERENCE, RECORD)).isEmpty();
    }

    @Test
    void aRetentionDeletionHasNoAodbTimeAndMessageZero() {
        var retention = CHANGE.replace("\"2024-03-11T08:36:00+08:00\"", "null").replace("55120", "0")
                .replace("\"AODB\"", "\"RETENTION\"").replace("FLOP", "LIFECYCLE").replace("\"GTDT\", \"change\"",
                        "\"CLEANUP\", \"change\"").replace("UPSERT", "DELETE");
        assertThat(PublishedContract.violations(Topic.MSG, retention)).isEmpty();
    }

    @Test
    void aFlightStateWithATimeANumberAnUntypedValueAndAVipRecordWithItsServicesKeepsTheContract() {
        assertThat(PublishedContract.violations(Topic.SCHD, flightState().toString())).isEmpty();
    }

    @Test
    void anUnknownFieldIsAllowedAnywhere() {
        var state = flightState();
        state.put("NEWF", "X");
        ((ObjectNode) state.get("GTDT").get(0)).put("NEWI", "Y");
        assertThat(PublishedContract.violations(Topic.SCHD, state.toString())).isEmpty();
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE.replace("{", "{\"traceId\": \"a\", "))).isEmpty();
    }

    @Test
    void aNumberSentAsAStringIsAViolationNamingTheField() {
        var state = flightState();
        state.put("MAXP", "185");
        assertThat(PublishedContract.violations(Topic.SCHD, state.toString()))
                .singleElement().asString().startsWith("schd value at $.MAXP: ").contains("string");
    }

    @Test
    void aTimeNotInRfc3339IsAViolationInAScalarAnItemASubItemAndTheDay() {
        var state = flightState();
        state.put("SODT", "11MAR240835");
        ((ObjectNode) state.get("GTDT").get(0)).put("PGOT", "11MAR240750");
        ((ObjectNode) state.get("VIPF").get(0).get("VIPT").get(0)).put("VTST", "2024-03-11 09:00:00");
        state.put("operationDay", "11MAR24");
        assertThat(PublishedContract.violations(Topic.SCHD, state.toString())).satisfiesExactlyInAnyOrder(
                v -> assertThat(v).startsWith("schd value at $.SODT: ").contains("date-time"),
                v -> assertThat(v).startsWith("schd value at $.GTDT[0].PGOT: ").contains("date-time"),
                v -> assertThat(v).startsWith("schd value at $.VIPF[0].VIPT[0].VTST: ").contains("date-time"),
                v -> assertThat(v).startsWith("schd value at $.operationDay: ").contains("date"));
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE.replace("2024-03-11T00:36:02.118Z", "11MAR240036")))
                .singleElement().asString().startsWith("msg value at $.updatedAt: ");
    }

    @Test
    void aMissingRequiredFieldIsAViolationNamingIt() {
        var state = flightState();
        state.remove("untypedValues");
        state.remove("EXTENSIONS");
        assertThat(PublishedContract.violations(Topic.SCHD, state.toString())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("untypedValues"))
                .anySatisfy(v -> assertThat(v).contains("EXTENSIONS"));
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE.replace("\"cause\": \"AODB\", ", "")))
                .singleElement().asString().startsWith("msg value at $: ").contains("cause");
        assertThat(PublishedContract.violations(Topic.REFERENCE, RECORD.replace(", \"dedupKey\": \"GLST:G33@55002\"", "")))
                .singleElement().asString().contains("dedupKey");
    }

    @Test
    void aWrongCauseIsAViolationNamingTheAllowedValues() {
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE.replace("\"AODB\"", "\"CLEANUP\"")))
                .singleElement().asString().startsWith("msg value at $.cause: ").contains("AODB", "RETENTION");
    }

    @Test
    void otherBreachesAreViolationsToo() {
        assertThat(PublishedContract.violations(Topic.MSG, CHANGE.replace("\"stateVersion\": 7", "\"stateVersion\": 0")))
                .singleElement().asString().startsWith("msg value at $.stateVersion: ");
        assertThat(PublishedContract.violations(Topic.REFERENCE, RECORD.replace("GLST:G33@55002", "GLST-G33")))
                .singleElement().asString().startsWith("reference value at $.dedupKey: ");
        var state = flightState();
        state.put("state", "DELETED");
        ((ObjectNode) state.get("GTDT").get(0)).put("sourceSeq", "1");
        assertThat(PublishedContract.violations(Topic.SCHD, state.toString())).hasSize(2);
        assertThat(PublishedContract.violations(Topic.MSG, "{\"flid\":")).singleElement().asString()
                .startsWith("msg value: not a JSON document");
    }

    @Test
    void aTombstoneHasNoValueToCheckButMsgNeverCarriesOne() {
        assertThat(PublishedContract.violations(Topic.SCHD, null)).isEmpty();
        assertThat(PublishedContract.violations(Topic.REFERENCE, null)).isEmpty();
        assertThat(PublishedContract.violations(Topic.MSG, null)).singleElement().asString().contains("tombstone");
    }

    @Test
    void theHeadersOfEachTopicKeepTheTable() {
        assertThat(PublishedContract.headerViolations(Topic.MSG, "1001", flightHeaders("change", "7"), false)).isEmpty();
        assertThat(PublishedContract.headerViolations(Topic.SCHD, "1001", flightHeaders("state", "7"), false)).isEmpty();
        assertThat(PublishedContract.headerViolations(Topic.SCHD, "1001", flightHeaders("state", "8"), true)).isEmpty();
        assertThat(PublishedContract.headerViolations(Topic.REFERENCE, "GLST:G33", referenceHeaders(), true)).isEmpty();
        assertThat(PublishedContract.headerNames(Topic.REFERENCE)).doesNotContain("msgx_stateversion")
                .contains("msgx_msgid", "ce_id");
    }

    @Test
    void aHeaderOutOfItsFormIsAViolationNamingIt() {
        var headers = flightHeaders("change", "7");
        headers.put("ce_specversion", "1.0.2");
        headers.put("ce_type", "io.msgx.flight.state.v1");
        headers.put("ce_source", "msgexchange/site");
        headers.put("ce_time", "2024-03-11T08:36:02+08:00");
        headers.put("content-type", "text/plain");
        headers.put("msgx_msgid", "-1");
        assertThat(PublishedContract.headerViolations(Topic.MSG, headers, false)).satisfiesExactlyInAnyOrder(
                v -> assertThat(v).contains("ce_specversion is '1.0.2'"),
                v -> assertThat(v).contains("ce_type is 'io.msgx.flight.state.v1', not 'io.msgx.flight.changed.v1'"),
                v -> assertThat(v).contains("content-type is 'text/plain'"),
                v -> assertThat(v).contains("ce_source is 'msgexchange/site'"),
                v -> assertThat(v).contains("ce_time is '2024-03-11T08:36:02+08:00', not an RFC 3339 time in UTC"),
                v -> assertThat(v).contains("msgx_msgid is '-1'"));
        var untimed = flightHeaders("state", "7");
        untimed.put("ce_time", "11MAR240836");
        assertThat(PublishedContract.headerViolations(Topic.SCHD, untimed, false)).singleElement().asString()
                .contains("ce_time is '11MAR240836'");
    }

    @Test
    void theIdTheSubjectTheVersionAndTheKeyMustAgree() {
        var headers = flightHeaders("state", "7");
        headers.put("ce_id", "change:1001:7");
        assertThat(PublishedContract.headerViolations(Topic.SCHD, headers, false)).singleElement().asString()
                .contains("ce_id is 'change:1001:7', not state:<FLID>:<stateVersion>");
        headers.put("ce_id", "state:1002:6");
        assertThat(PublishedContract.headerViolations(Topic.SCHD, "1003", headers, false)).satisfiesExactlyInAnyOrder(
                v -> assertThat(v).contains("ce_subject is '1001' but ce_id 'state:1002:6' names '1002'"),
                v -> assertThat(v).contains("msgx_stateversion is '7' but ce_id 'state:1002:6' names version 6"),
                v -> assertThat(v).contains("ce_subject is '1001' but the key is '1003'"));
        var reference = referenceHeaders();
        reference.put("msgx_msgid", "55001");
        reference.put("msgx_stateversion", "1");
        assertThat(PublishedContract.headerViolations(Topic.REFERENCE, reference, false)).satisfiesExactlyInAnyOrder(
                v -> assertThat(v).contains("msgx_msgid is '55001' but ce_id 'GLST:G33@55002' names message 55002"),
                v -> assertThat(v).contains("msgx_stateversion is '1', but a reference record carries none"));
    }

    @Test
    void aMissingHeaderAndATombstoneOnMsgAreViolations() {
        var headers = flightHeaders("change", "7");
        headers.remove("msgx_stateversion");
        headers.remove("ce_subject");
        assertThat(PublishedContract.headerViolations(Topic.MSG, headers, true)).containsExactly(
                "msg tombstone: msg never carries a tombstone",
                "msg tombstone: header ce_subject is missing",
                "msg tombstone: header msgx_stateversion is missing");
    }

    /** A schd value written by hand: a time, a number, an untyped value, a gate and a VIP record with its services. */
    private static ObjectNode flightState() {
        var state = JSON.createObjectNode();
        state.put("flid", "1001");
        state.put("stateVersion", 7);
        state.put("updatedAt", "2024-03-11T00:36:02.118Z");
        state.put("msgId", 55120);
        state.put("aodbSentAt", "2024-03-11T08:36:00+08:00");
        state.put("operationDay", "2024-03-11");
        state.put("state", "ACTIVE");
        for (var field : FlightField.values()) {
            state.putNull(field.code());
        }
        state.put("FLNO", "CA1405");
        state.put("SODT", "2024-03-11T08:35:00+08:00");
        state.put("MAXP", 185);
        state.put("LBWT", new BigDecimal("12.50"));
        state.putNull("ESTT");
        for (var list : FlightList.values()) {
            state.putArray(list.code());
        }
        var gate = ((ArrayNode) state.get("GTDT")).addObject();
        gate.put("ordinal", 1);
        gate.put("sourceSeq", 1);
        gate.put("GATE", "G33");
        gate.put("PGOT", "2024-03-11T07:50:00+08:00");
        gate.putNull("PGCT");
        gate.putObject("untypedValues").put("PGCT", "LATER");
        var vip = ((ArrayNode) state.get("VIPF")).addObject();
        vip.put("ordinal", 1);
        vip.putNull("sourceSeq");
        vip.put("VPCD", "V1");
        var service = vip.putArray("VIPT").addObject();
        service.put("VSCD", "LNG");
        service.put("VTQY", 2);
        service.put("VTST", "2024-03-11T07:00:00+08:00");
        service.put("VTET", "2024-03-11T08:00:00+08:00");
        var extension = ((ArrayNode) state.get("EXTENSIONS")).addObject();
        extension.put("ordinal", 1);
        extension.putNull("sourceSeq");
        extension.put("PATH", "XTRA/@CODE");
        extension.put("VALUE", "7");
        state.putObject("untypedValues").put("ESTT", "TBA");
        var child = state.putArray("mafl").addObject();
        child.put("flid", "1002");
        child.put("flno", "MU5101");
        return state;
    }

    private static Map<String, String> flightHeaders(String kind, String stateVersion) {
        var headers = new LinkedHashMap<String, String>();
        headers.put("ce_specversion", "1.0");
        headers.put("ce_id", kind + ":1001:" + stateVersion);
        headers.put("ce_source", "/msgexchange/PEK/node-a");
        headers.put("ce_type", kind.equals("change") ? "io.msgx.flight.changed.v1" : "io.msgx.flight.state.v1");
        headers.put("ce_subject", "1001");
        headers.put("ce_time", "2024-03-11T00:36:02.118Z");
        headers.put("content-type", "application/json");
        headers.put("msgx_stateversion", stateVersion);
        headers.put("msgx_msgid", "55120");
        return headers;
    }

    private static Map<String, String> referenceHeaders() {
        var headers = new LinkedHashMap<String, String>();
        headers.put("ce_specversion", "1.0");
        headers.put("ce_id", "GLST:G33@55002");
        headers.put("ce_source", "/msgexchange/PEK/node-a");
        headers.put("ce_type", "io.msgx.reference.record.v1");
        headers.put("ce_subject", "GLST:G33");
        headers.put("ce_time", "2024-03-11T00:10:04.551Z");
        headers.put("content-type", "application/json");
        headers.put("msgx_msgid", "55002");
        return headers;
    }
}
