package io.msgx.pipeline.pump;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.PublishedValues;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Conformance with sis-format v2 §4 and §5, end to end: every path of the contract's tables — every scalar, every list
 * item field, every attribute-borne field, every sequence attribute — is written in its real form into a mailbox
 * message, decoded, applied by the engine, stored (in the H2 test store) and published on {@code schd}; the test fails
 * when any value is lost on the way or anything is reported unmapped.
 *
 * <p>The tables below are copied from the contract, not derived from the model's enums, so a path the model does not
 * know fails here instead of going unnoticed.
 */
class ContractV2ConformanceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One element of a table: where its values stand in the XML and under which key the projection shows them. */
    private record Path(String element, String key) {
    }

    /** A list of §5: item element, sequence attribute (or null), attribute fields, child fields, text field (or null). */
    private record ListSpec(String code, String sequence, List<String> attributes, List<String> children, String text) {
    }

    /** §4's record scalars besides FLID (the exception status code and reason as v2 names them). */
    private static final List<String> RECORD_SCALARS = List.of("FFID", "ALCD", "FLNO", "MVIN", "SODT", "FLTY", "FLIN",
            "ACFT", "RENO", "TRML", "MAXP", "STND", "RUNW", "FTSS", "EXSC", "EXSR", "REMC", "ESTT", "ACTT", "TAOP", "TAFL",
            "TAID", "PHAG", "FHAG", "MHAG", "CSOP", "CSFT", "MAID");

    /** §5's scalar subtypes and the elements each carries (attribute- and child-borne ones by their projection key). */
    private static final Map<String, List<String>> SCALAR_SUBTYPES = new LinkedHashMap<>();

    static {
        for (String single : List.of("STND", "ACFT", "RENO", "TRML", "RUNW", "MAXP", "FLTY", "FLIN", "REMC", "FTSS",
                "BOTM", "LACL", "FINT", "EOBT", "TOBT", "COBT", "CTOT", "IEST", "APPT", "EGSR", "EGST", "NEAT", "NAAT",
                "PEDT", "PADT", "ESTT", "ACTT", "CNCL")) {
            SCALAR_SUBTYPES.put(single, List.of(single));
        }
        SCALAR_SUBTYPES.put("EXSS", List.of("EXSC", "EXSR"));
        SCALAR_SUBTYPES.put("FDIV", List.of("FDIV", "FDIV@DDES", "FDIV@DDIR"));
        SCALAR_SUBTYPES.put("FRET", List.of("FRET", "FRET@REID"));
        SCALAR_SUBTYPES.put("FLAB", List.of("FLAB", "FLAB@ARES"));
        SCALAR_SUBTYPES.put("PORT", List.of("PORT/POTM", "PORT/POID"));
        SCALAR_SUBTYPES.put("VIPP", List.of("VIPP", "VIPR"));
        SCALAR_SUBTYPES.put("VIPR", List.of("VIPP", "VIPR"));
        SCALAR_SUBTYPES.put("TAOP", List.of("TAOP", "TAFL", "TAID"));
        SCALAR_SUBTYPES.put("HNAG", List.of("PHAG", "FHAG", "MHAG"));
        SCALAR_SUBTYPES.put("CSHR", List.of("CSOP", "CSFT", "MAID"));
    }

    private static final List<ListSpec> LISTS = List.of(
            new ListSpec("GTDT", "GTNO", List.of(), List.of("GATE", "PGOT", "PGCT", "GOTM", "GCTM", "GTYP"), null),
            new ListSpec("CKDT", "CKNO", List.of(), List.of("CHKC", "CCLS", "PCOT", "PCCT", "COTM", "CCTM", "CTYP"), null),
            new ListSpec("CLDT", "CLNO", List.of(), List.of("BELT", "BCLS", "PCOT", "PCCT", "BTYP"), null),
            new ListSpec("PSDT", "PSNO", List.of(), List.of("PSST", "STST", "STET"), null),
            new ListSpec("CHDT", "CHNO", List.of(), List.of("CHUT", "CCLS", "PCBT", "PCET", "CBTM", "CETM", "CTYP"), null),
            new ListSpec("DELY", null, List.of("CODE", "STRT", "DURA"), List.of(), "DESC"),
            new ListSpec("ABTM", "ASNO", List.of(), List.of("ABDG", "ABOP", "AOTM"), null),
            new ListSpec("CHOT", "CSNO", List.of(), List.of("CHTM", "CHID", "CHST"), null),
            new ListSpec("ROUT", "RTNO", List.of(), List.of("APCD", "SCAT", "SCDT"), null),
            new ListSpec("ERUT", "RTNO", List.of(), List.of("APCD", "SCAT", "SCDT"), null),
            new ListSpec("SRVT", null, List.of(), List.of("SRTC", "SRQT", "SRST", "SRET", "SRPR", "SANR", "SARR"), null),
            new ListSpec("VIPF", null, List.of(), List.of("VPCD", "VFES"), null),
            new ListSpec("PSHT", "PSHN", List.of(), List.of("PSTM", "PSID", "PUST"), null),
            new ListSpec("TIPT", null, List.of(), List.of("TRTM", "TRST"), null));

    private static final String SODT = "11MAR240835";

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, SettableClock.atExampleDay());
    private long seqn;

    @Test
    void aScheduleRecordCarryingEveryPathOfTheContractLosesNothing() throws Exception {
        var expected = new LinkedHashMap<String, String>();
        var record = new StringBuilder("<FLID>1001</FLID>");
        for (String code : RECORD_SCALARS) {
            record.append(scalar(code, code.equals("SODT") ? SODT : code.equals("MAID") ? "" : value(code, "计划"), expected));
        }
        var carried = new java.util.HashSet<>(RECORD_SCALARS);
        for (var subtype : SCALAR_SUBTYPES.entrySet()) {
            var paths = subtype.getValue().stream().filter(path -> !carried.contains(path.split("[@/]")[0])).toList();
            paths.forEach(path -> carried.add(path.split("[@/]")[0]));
            record.append(scalars(paths, "记录", expected));
        }
        var lists = new LinkedHashMap<String, List<Map<String, String>>>();
        for (ListSpec list : LISTS) {
            record.append(items(list, "记录", lists));
        }

        var projection = process("SCHD", "DNLD", "<SCHD><RECS>1</RECS><FLTR>" + record + "</FLTR></SCHD>");

        assertEveryValue(projection, expected, lists);
    }

    @TestFactory
    Stream<DynamicTest> everyOperationOfTheContractLosesNothing() {
        var tests = new ArrayList<DynamicTest>();
        for (var subtype : SCALAR_SUBTYPES.entrySet()) {
            tests.add(DynamicTest.dynamicTest("FLOP " + subtype.getKey(), () -> {
                var expected = new LinkedHashMap<String, String>();
                var body = scalars(subtype.getValue(), subtype.getKey() + "操作", expected);
                assertEveryValue(operation(subtype.getKey(), body), expected, Map.of());
            }));
        }
        for (ListSpec list : LISTS) {
            tests.add(DynamicTest.dynamicTest("FLOP " + list.code(), () -> {
                var lists = new LinkedHashMap<String, List<Map<String, String>>>();
                var body = items(list, list.code() + "操作", lists);
                assertEveryValue(operation(list.code(), body), Map.of(), lists);
            }));
        }
        return tests.stream();
    }

    /** A flight to operate on, then the operation; the projection after it. */
    private JsonNode operation(String styp, String body) throws Exception {
        process("SCHD", "DNLD", "<SCHD><RECS>1</RECS><FLTR><FLID>1001</FLID><SODT>" + SODT + "</SODT></FLTR></SCHD>");
        return process("FLOP", styp, "<FLOP><FLID>1001</FLID>" + body + "</FLOP>");
    }

    private static String value(String key, String flavour) {
        return key + "-" + flavour + " <&>";
    }

    private static String scalar(String code, String text, Map<String, String> expected) {
        expected.put(code, text);
        return "<" + code + ">" + escape(text) + "</" + code + ">";
    }

    /**
     * The elements of {@code paths} with a value each: {@code X} is element {@code X}, {@code X@A} attribute {@code A}
     * of {@code X} (projection key {@code X_A}), {@code X/C} child {@code C} of {@code X} (key {@code X_C}).
     */
    private static String scalars(List<String> paths, String flavour, Map<String, String> expected) {
        var elements = new LinkedHashMap<String, StringBuilder[]>(); // element -> {attributes, text, children}
        for (String path : paths) {
            String element = path.split("[@/]")[0];
            var parts = elements.computeIfAbsent(element, e -> new StringBuilder[]{new StringBuilder(), new StringBuilder(),
                    new StringBuilder()});
            if (path.contains("@")) {
                String attribute = path.substring(path.indexOf('@') + 1);
                String text = value(element + "_" + attribute, flavour);
                expected.put(element + "_" + attribute, text);
                parts[0].append(' ').append(attribute).append("=\"").append(escape(text)).append('"');
            } else if (path.contains("/")) {
                String child = path.substring(path.indexOf('/') + 1);
                parts[2].append(scalar(child, value(element + "_" + child, flavour), new LinkedHashMap<>()));
                expected.put(element + "_" + child, value(element + "_" + child, flavour));
            } else {
                String text = element.equals("MAID") ? "" : value(element, flavour);
                expected.put(element, text);
                parts[1].append(escape(text));
            }
        }
        var xml = new StringBuilder();
        elements.forEach((element, parts) -> xml.append('<').append(element).append(parts[0]).append('>')
                .append(parts[1]).append(parts[2]).append("</").append(element).append('>'));
        return xml.toString();
    }

    /** Two items of {@code list} with every field filled, the second with the same sequence as the first. */
    private static String items(ListSpec list, String flavour, Map<String, List<Map<String, String>>> expected) {
        var xml = new StringBuilder();
        var items = new ArrayList<Map<String, String>>();
        for (int n = 1; n <= 2; n++) {
            var values = new LinkedHashMap<String, String>();
            xml.append('<').append(list.code());
            if (list.sequence() != null) {
                xml.append(' ').append(list.sequence()).append("=\"7\"");
                values.put("sourceSeq", "7");
            }
            for (String attribute : list.attributes()) {
                String text = value(attribute + n, flavour);
                values.put(attribute, text);
                xml.append(' ').append(attribute).append("=\"").append(escape(text)).append('"');
            }
            xml.append('>');
            if (list.text() != null) {
                String text = value(list.text() + n, flavour);
                values.put(list.text(), text);
                xml.append(escape(text));
            }
            for (String child : list.children()) {
                String text = value(list.code() + "/" + child + n, flavour);
                values.put(child, text);
                xml.append('<').append(child).append('>').append(escape(text)).append("</").append(child).append('>');
            }
            xml.append("</").append(list.code()).append('>');
            items.add(values);
        }
        expected.put(list.code(), items);
        return xml.toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Puts one message in the mailbox, checks it decodes with nothing unmapped and succeeds; the latest projection. */
    private JsonNode process(String type, String styp, String body) throws Exception {
        String xml = "<MSG><META><SNDR>AODB</SNDR><SEQN>" + (++seqn) + "</SEQN><DTTM>20240311080000</DTTM><TYPE>" + type
                + "</TYPE><STYP>" + styp + "</STYP></META>" + body + "</MSG>";
        var decoded = new JacksonXmlCodec().decode(xml);
        assertThat(decoded).as(xml).isInstanceOf(DecodeResult.Decoded.class);
        assertThat(((DecodeResult.Decoded) decoded).unmapped()).as("unmapped paths of " + xml).isEmpty();

        long id = mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();

        var record = store.queue().find(id).orElseThrow();
        assertThat(record.status()).as(record.lastError()).isEqualTo(ProcStatus.SUCCEEDED);
        var projections = store.allEvents().stream().filter(e -> e.event().target() == OutboxTarget.KAFKA_SCHD).toList();
        return JSON.readTree(projections.get(projections.size() - 1).event().payload());
    }

    private static void assertEveryValue(JsonNode projection, Map<String, String> scalars,
                                         Map<String, List<Map<String, String>>> lists) {
        scalars.forEach((key, value) -> {
            assertThat(projection.has(key)).as("schd has " + key).isTrue();
            assertThat(PublishedValues.asSent(projection, key, value)).as(key).isEqualTo(value);
        });
        lists.forEach((code, items) -> {
            var array = projection.get(code);
            assertThat(array).as("schd has list " + code).isNotNull();
            assertThat(array.size()).as(code + " items").isEqualTo(items.size());
            for (int i = 0; i < items.size(); i++) {
                var item = array.get(i);
                assertThat(item.get("ordinal").asInt()).isEqualTo(i + 1);
                if (!items.get(i).containsKey("sourceSeq")) {
                    assertThat(item.get("sourceSeq").isNull()).as(code + " #" + (i + 1) + " sourceSeq").isTrue();
                }
                int n = i + 1;
                items.get(i).forEach((field, value) -> assertThat(item.has(field)
                        ? PublishedValues.asSent(item, field, value) : null).as(code + " #" + n + " " + field)
                        .isEqualTo(value));
            }
        });
    }
}
