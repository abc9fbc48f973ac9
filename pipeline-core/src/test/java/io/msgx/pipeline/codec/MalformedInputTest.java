package io.msgx.pipeline.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.msgx.pipeline.codec.CodecFixtures.malformed;
import static io.msgx.pipeline.codec.CodecFixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

/** Contract breaches end Malformed with a reason naming the element; defects end CodecError. */
class MalformedInputTest {

    private static final String FULL_META = "<SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20260311223126</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP>";
    private static final String FLOP = "<FLOP><FLID>1</FLID><STND>5</STND></FLOP>";

    @Test
    void missingMeta() {
        assertThat(malformed("<MSG>" + FLOP + "</MSG>")).isEqualTo("MSG has no META");
    }

    @ParameterizedTest
    @ValueSource(strings = {"SNDR", "SEQN", "TYPE", "STYP"})
    void eachMissingMetaElement(String element) {
        String meta = FULL_META.replaceAll("<" + element + ">[^<]*</" + element + ">", "");

        assertThat(malformed("<MSG><META>" + meta + "</META>" + FLOP + "</MSG>")).isEqualTo("META has no " + element);
    }

    @ParameterizedTest
    @ValueSource(strings = {"SNDR", "SEQN", "TYPE", "STYP"})
    void eachEmptyMetaElement(String element) {
        String meta = FULL_META.replaceAll("<" + element + ">[^<]*</" + element + ">", "<" + element + "> </" + element + ">");

        assertThat(malformed("<MSG><META>" + meta + "</META>" + FLOP + "</MSG>")).isEqualTo("META " + element + " is empty");
    }

    @Test
    void missingSendTime() {
        String meta = FULL_META.replace("<DTTM>20260311223126</DTTM>", "");

        assertThat(malformed("<MSG><META>" + meta + "</META>" + FLOP + "</MSG>")).isEqualTo("META has no DTTM (nor its alias DDTM)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-03-11", "20260230120000", "20260311246000", "2026031122312", "", "2026031122312x"})
    void badSendTime(String dttm) {
        String meta = FULL_META.replace("20260311223126", dttm);

        assertThat(malformed("<MSG><META>" + meta + "</META>" + FLOP + "</MSG>"))
                .isEqualTo("DTTM '" + dttm + "' is neither yyyyMMddHHmmss nor yyyy-MM-dd HH:mm:ss");
    }

    @Test
    void badAliasSendTimeIsNamedAsDdtm() {
        String meta = FULL_META.replace("<DTTM>20260311223126</DTTM>", "<DDTM>11MAR240835</DDTM>");

        assertThat(malformed("<MSG><META>" + meta + "</META>" + FLOP + "</MSG>")).isEqualTo("DDTM '11MAR240835' is neither yyyyMMddHHmmss nor yyyy-MM-dd HH:mm:ss");
    }

    @Test
    void metaElementTwice() {
        assertThat(malformed("<MSG><META>" + FULL_META + "<SEQN>2</SEQN></META>" + FLOP + "</MSG>"))
                .isEqualTo("META: SEQN appears twice");
        assertThat(malformed("<MSG><META>" + FULL_META + "</META><META>" + FULL_META + "</META>" + FLOP + "</MSG>"))
                .isEqualTo("MSG: META appears twice");
    }

    @Test
    void nonIntegerRecs() {
        assertThat(malformed("<MSG>" + meta("SCHD", "DNLD") + "<SCHD><RECS>two</RECS></SCHD></MSG>"))
                .isEqualTo("RECS 'two' is not an integer");
        assertThat(malformed("<MSG>" + meta("SCHD", "DNLD") + "<SCHD><RECS/></SCHD></MSG>"))
                .isEqualTo("RECS '' is not an integer");
    }

    @Test
    void scalarTwiceInOneRecord() {
        String schd = "<SCHD><RECS>2</RECS><FLTR><FLID>1</FLID><STND>1</STND></FLTR>"
                + "<FLTR><FLID>2</FLID><STND>504</STND><GATE>x</GATE><STND/></FLTR></SCHD>";

        assertThat(malformed("<MSG>" + meta("SCHD", "DNLD") + schd + "</MSG>")).isEqualTo("FLTR #2: STND appears twice");
        assertThat(malformed("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1</FLID><STND>1</STND><STND>2</STND></FLOP></MSG>"))
                .isEqualTo("FLOP: STND appears twice");
        assertThat(malformed("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1</FLID><FLID>2</FLID></FLOP></MSG>"))
                .isEqualTo("FLOP: FLID appears twice");
    }

    @Test
    void itemFieldTwice() {
        assertThat(malformed("<MSG>" + meta("FLOP", "GTDT")
                + "<FLOP><FLID>1</FLID><GTDT GTNO=\"1\"><GATE>A</GATE></GTDT><GTDT GTNO=\"2\"><GATE>B</GATE><GATE>C</GATE></GTDT></FLOP></MSG>"))
                .isEqualTo("FLOP: GTDT #2: GATE appears twice");
        assertThat(malformed("<MSG>" + meta("FLOP", "DELY")
                + "<FLOP><FLID>1</FLID><DELY CODE=\"93\"><CODE>94</CODE></DELY></FLOP></MSG>"))
                .isEqualTo("FLOP: DELY #1: CODE appears twice");
        assertThat(malformed("<MSG>" + meta("FLOP", "PORT")
                + "<FLOP><FLID>1</FLID><PORT><POTM>1</POTM><POTM>2</POTM></PORT></FLOP></MSG>"))
                .isEqualTo("FLOP: PORT/POTM appears twice");
        assertThat(malformed("<MSG>" + meta("FLOP", "FDIV")
                + "<FLOP><FLID>1</FLID><FDIV DDES=\"HKG\">A</FDIV><FDIV>B</FDIV></FLOP></MSG>"))
                .isEqualTo("FLOP: FDIV appears twice");
        // A sequence that is not a number is no longer malformed (sis-format v2 §3): see SisContractV2Test.
    }

    @Test
    void valueOverTheValueLimit() {
        String long513 = "x".repeat(513);

        assertThat(malformed("<MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1</FLID><REMC>" + long513 + "</REMC></FLOP></MSG>"))
                .isEqualTo("FLOP: REMC is 513 characters, longer than 512");
        assertThat(malformed("<MSG>" + meta("FLOP", "DELY")
                + "<FLOP><FLID>1</FLID><DELY><DESC>" + long513 + "</DESC></DELY></FLOP></MSG>"))
                .isEqualTo("FLOP: DELY #1: DESC is 513 characters, longer than 512");
        assertThat(malformed("<MSG>" + meta("FLOP", "FDIV") + "<FLOP><FLID>1</FLID><FDIV><DVRM>"
                + "y".repeat(510) + "</DVRM></FDIV></FLOP></MSG>"))
                .isEqualTo("FLOP: FDIV is 515 characters, longer than 512");
    }

    @Test
    void missingBody() {
        assertThat(malformed("<MSG>" + meta("SCHD", "DNLD") + "</MSG>")).isEqualTo("MSG has no SCHD body: payload missing");
        assertThat(malformed("<MSG>" + meta("FLOP", "GTDT") + "<SCHD/></MSG>")).isEqualTo("MSG has no FLOP body: payload missing");
        assertThat(malformed("<MSG>" + meta("FLOP", "FDEL") + "</MSG>"))
                .isEqualTo("MSG has no FLOP (or FDEL) body: payload missing");
        assertThat(malformed("<MSG>" + meta("GATE", "RESP") + "</MSG>")).isEqualTo("MSG has no GATE body: payload missing");
    }

    @Test
    void referenceRecordWithoutKey() {
        assertThat(malformed("<MSG>" + meta("GATE", "RESP") + "<GATE><GTCD>G1</GTCD></GATE><GATE><GTCD/><DESC>x</DESC></GATE></MSG>"))
                .isEqualTo("GATE #2: key element GTCD is empty");
        assertThat(malformed("<MSG>" + meta("GATE", "RESP") + "<GATE><GATE><GTCD>G1</GTCD></GATE><GATE/></GATE></MSG>"))
                .isEqualTo("GATE #2 has no key element");
    }

    @Test
    void anUnexpectedExceptionWhileMappingIsACodecError() {
        var codec = new JacksonXmlCodec(CodecLimits.DEFAULTS, root -> {
            throw new IllegalStateException("mapper defect");
        });

        assertThat(codec.decode("<MSG>" + meta("FLOP", "STND") + FLOP + "</MSG>")).isEqualTo(new DecodeResult.CodecError(
                "java.lang.IllegalStateException while mapping a well-formed message: mapper defect"));
        assertThat(codec.decode("<MSG><FLOP>")).isInstanceOf(DecodeResult.Malformed.class);
    }
}
