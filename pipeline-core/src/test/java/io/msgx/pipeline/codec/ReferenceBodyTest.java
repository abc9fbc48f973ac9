package io.msgx.pipeline.codec;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The codec's reading and writing of reference messages in the real form of sis-format §6 (version 2). */
class ReferenceBodyTest {

    private static final JacksonXmlCodec CODEC = new JacksonXmlCodec();

    private static String message(String type, String styp, String body) {
        return "<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20240311060000</DTTM><TYPE>" + type + "</TYPE><STYP>"
                + styp + "</STYP></META>" + body + "</MSG>";
    }

    private static DecodeResult.Decoded decoded(String xml) {
        var result = CODEC.decode(xml);
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return (DecodeResult.Decoded) result;
    }

    @Test
    void everyReferenceStypIsAReferenceKindCarryingItsAction() {
        for (var action : ReferenceAction.values()) {
            var message = decoded(message("GLST", action.name(), "<GLST><GCOD>G1</GCOD></GLST>")).message();
            assertThat(message.kind()).isEqualTo(new MsgKind.Ref("GLST", action));
            assertThat(message.referenceAnswer().orElseThrow().action()).isEqualTo(action);
        }
        assertThat(decoded(message("GLST", "RQST", "<GLST/>")).message().kind())
                .isEqualTo(new MsgKind.Unsupported("GLST", "RQST"));
    }

    @Test
    void theDefaultTypesAreThoseOfVersion2ButRegnPlusTheVersion1Names() {
        assertThat(MsgKind.DEFAULT_REFERENCE_TYPES).hasSize(29).doesNotContain("REGN")
                .contains("ABDG", "GLST", "SLST", "VIPS", "GATE", "STND", "DLYC");
        assertThat(decoded(message("REGN", "DNLD", "<REGN><RNUM>B-1</RNUM></REGN>")).message().kind())
                .isEqualTo(new MsgKind.Unsupported("REGN", "DNLD"));
    }

    @Test
    void recordsDirectlyUnderMsgWithRecsAreReadWholeAndWrittenBackTheSame() {
        var xml = message("AIRL", "UPD", "<RECS>2</RECS>"
                + "<AIRL><ITOP>3U</ITOP><ONMC>四川航空</ONMC><TRML MVIN=\"A\" FLIN=\"I\">T2</TRML><TRML MVIN=\"D\" FLIN=\"\">T1</TRML>"
                + "<SUBC><CODE>3U</CODE><NAME/><NAMC>川航</NAMC></SUBC><DORI/></AIRL>"
                + "<AIRL><ITOP>CA</ITOP></AIRL>");
        var decoded = decoded(xml);
        var answer = decoded.message().referenceAnswer().orElseThrow();

        assertThat(decoded.unmapped()).isEmpty();
        assertThat(answer.declaredCount()).isEqualTo(2);
        assertThat(answer.records()).extracting(ReferenceRecord::key).containsExactly("3U", "CA");
        assertThat(answer.records().get(0).document().json()).isEqualTo("{\"ITOP\":\"3U\",\"ONMC\":\"四川航空\","
                + "\"TRML\":[{\"@MVIN\":\"A\",\"@FLIN\":\"I\",\"#text\":\"T2\"},{\"@MVIN\":\"D\",\"@FLIN\":\"\",\"#text\":\"T1\"}],"
                + "\"SUBC\":{\"CODE\":\"3U\",\"NAME\":\"\",\"NAMC\":\"川航\"},\"DORI\":\"\"}");
        var meta = decoded.message().meta();
        var again = decoded(CODEC.encode(meta, answer)).message().referenceAnswer().orElseThrow();
        assertThat(again).isEqualTo(answer);
    }

    @Test
    void aRepeatedElementIsAnArrayAndTheKeyIsTheFirstElementsText() {
        var answer = decoded(message("ABDG", "ADD", "<ABDG><ABCD> AB01 </ABCD><STND>201</STND><STND>202</STND></ABDG>"))
                .message().referenceAnswer().orElseThrow();

        assertThat(answer.records().get(0).key()).isEqualTo("AB01");
        assertThat(answer.records().get(0).document().json()).isEqualTo("{\"ABCD\":\"AB01\",\"STND\":[\"201\",\"202\"]}");
        assertThat(answer.declaredCount()).isNull();
    }

    @Test
    void unknownSiblingsOfTheRecordsAreListedAsUnmappedAndNothingInsideARecordIs() {
        var decoded = decoded(message("GLST", "DNLD", "<XTRA>1</XTRA><RECS>1</RECS><GLST><GCOD>G1</GCOD><NEWX a=\"1\"/></GLST>"
                + "<XTRA/><OTHR/>"));

        assertThat(decoded.unmapped()).containsExactly("MSG/XTRA", "MSG/OTHR");
        assertThat(decoded.message().referenceAnswer().orElseThrow().records().get(0).document().json())
                .isEqualTo("{\"GCOD\":\"G1\",\"NEWX\":{\"@a\":\"1\"}}");
    }

    @Test
    void recsZeroWithoutRecordsIsAnEmptyMessageAndNoBodyAtAllIsMalformed() {
        var answer = decoded(message("GLST", "DNLD", "<RECS>0</RECS>")).message().referenceAnswer().orElseThrow();
        assertThat(answer.records()).isEmpty();
        assertThat(answer.declaredCount()).isZero();

        assertThat(CODEC.decode(message("GLST", "DNLD", ""))).isEqualTo(
                new DecodeResult.Malformed("MSG has no GLST body: payload missing"));
        assertThat(CODEC.decode(message("GLST", "DNLD", "<RECS>x</RECS>"))).isEqualTo(
                new DecodeResult.Malformed("RECS 'x' is not an integer"));
    }

    @Test
    void aFlatRecordOfVersion1IsADocumentOfStrings() {
        var record = new ReferenceRecord("G28", new java.util.LinkedHashMap<>(Map.of("GTCD", "G28")));
        assertThat(record.document().json()).isEqualTo("{\"GTCD\":\"G28\"}");
        var meta = MessageMeta.of("AODB", "GATE", "RESP", "1", LocalDateTime.of(2024, 3, 11, 6, 0));
        assertThat(CODEC.encode(meta, new ReferenceAnswer("GATE", List.of(record))))
                .contains("<GATE><GTCD>G28</GTCD></GATE>");
    }
}
