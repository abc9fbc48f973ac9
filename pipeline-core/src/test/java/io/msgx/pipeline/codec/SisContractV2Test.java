package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.codec.CodecFixtures.CODEC;
import static io.msgx.pipeline.codec.CodecFixtures.assertRoundTrip;
import static io.msgx.pipeline.codec.CodecFixtures.decoded;
import static io.msgx.pipeline.codec.CodecFixtures.fields;
import static io.msgx.pipeline.codec.CodecFixtures.flight;
import static io.msgx.pipeline.codec.CodecFixtures.item;
import static io.msgx.pipeline.codec.CodecFixtures.meta;
import static io.msgx.pipeline.codec.CodecFixtures.unmapped;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real forms of sis-format v2 (§3 attributes, §4 schedule, §5 operations), decoded to their values, encoded back
 * in the same form, and what nothing maps named by its path.
 */
class SisContractV2Test {

    private static final FieldChange CLEARED = FieldChange.Cleared.INSTANCE;

    private static String flop(String styp, String body) {
        return "<MSG>" + meta("FLOP", styp) + "<FLOP><FLID>1001</FLID>" + body + "</FLOP></MSG>";
    }

    private static FlightPatch patchOf(String styp, String body) {
        return ((FlightOperation) flight(flop(styp, body))).patch();
    }

    private static String encoded(String xml) {
        var message = decoded(xml);
        return CODEC.encode(message.meta(), message.flightMessage().orElseThrow());
    }

    // ---------------------------------------------------------------------------------------------------------
    // §3 and §5: attributes are data
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void delayCarriesCodeStartAndDurationAsAttributesAndTheDescriptionAsText() {
        var xml = flop("DELY", """
                <DELY CODE="93" STRT="11MAR240835" DURA="0045">LATE INBOUND</DELY>
                <DELY CODE="81" STRT="11MAR240920" DURA="0010">流量控制</DELY>
                <DELY CODE="93">LATE INBOUND</DELY>""");

        assertThat(((FlightOperation) flight(xml)).patch().lists())
                .isEqualTo(Map.of(FlightList.DELY, List.of(
                        item(null, "CODE", "93", "STRT", "11MAR240835", "DURA", "0045", "DESC", "LATE INBOUND"),
                        item(null, "CODE", "81", "STRT", "11MAR240920", "DURA", "0010", "DESC", "流量控制"),
                        item(null, "CODE", "93", "DESC", "LATE INBOUND"))));
        assertThat(unmapped(xml)).isEmpty();
        assertThat(encoded(xml)).contains("<DELY CODE=\"93\" STRT=\"11MAR240835\" DURA=\"0045\">LATE INBOUND</DELY>");
        assertRoundTrip(decoded(xml));
    }

    @Test
    void delayInVersion1FormIsStillRead() {
        assertThat(patchOf("DELY", "<DELY DLNO=\"1\"><CODE>93</CODE><STRT>11MAR240835</STRT><DURA>0045</DURA>"
                + "<DESC>LATE</DESC></DELY>").lists().get(FlightList.DELY))
                .containsExactly(item(1, "CODE", "93", "STRT", "11MAR240835", "DURA", "0045", "DESC", "LATE"));
    }

    @Test
    void diversionCarriesAirportAndDirectionAsAttributes() {
        var xml = flop("FDIV", "<FDIV DDES=\"HKG\" DDIR=\"TO\">WEATHER</FDIV>");

        assertThat(patchOf("FDIV", "<FDIV DDES=\"HKG\" DDIR=\"TO\">WEATHER</FDIV>").fields()).isEqualTo(fields(
                FlightField.FDIV, "WEATHER", FlightField.FDIV_DDES, "HKG", FlightField.FDIV_DDIR, "TO"));
        assertThat(unmapped(xml)).isEmpty();
        assertThat(encoded(xml)).contains("<FDIV DDES=\"HKG\" DDIR=\"TO\">WEATHER</FDIV>");
        assertRoundTrip(decoded(xml));
    }

    @Test
    void anEmptyAttributeClearsItsFieldAndAnAbsentOneSaysNothing() {
        assertThat(patchOf("FDIV", "<FDIV DDIR=\"\">天气原因</FDIV>").fields())
                .isEqualTo(fields(FlightField.FDIV, "天气原因", FlightField.FDIV_DDIR, CLEARED));
        assertThat(patchOf("FDIV", "<FDIV DDES=\"CTU\"/>").fields())
                .as("an element with attributes is not bare: its empty text clears the reason only")
                .isEqualTo(fields(FlightField.FDIV, CLEARED, FlightField.FDIV_DDES, "CTU"));
        assertRoundTrip(decoded(flop("FDIV", "<FDIV DDIR=\"\">天气原因</FDIV>")));
        assertRoundTrip(decoded(flop("FDIV", "<FDIV DDES=\"CTU\"/>")));
    }

    @Test
    void aBareExceptionElementWithdrawsTheWholeException() {
        assertThat(patchOf("FDIV", "<FDIV/>").fields())
                .isEqualTo(fields(FlightField.FDIV, CLEARED, FlightField.FDIV_DDES, CLEARED, FlightField.FDIV_DDIR, CLEARED));
        assertThat(patchOf("FRET", "<FRET></FRET>").fields())
                .isEqualTo(fields(FlightField.FRET, CLEARED, FlightField.FRET_REID, CLEARED));
        assertThat(encoded(flop("FDIV", "<FDIV/>"))).contains("<FDIV/>");
        assertRoundTrip(decoded(flop("FLAB", "<FLAB/>")));
    }

    @Test
    void returnAndAbortCarryTheirCodesAsAttributes() {
        assertThat(patchOf("FRET", "<FRET REID=\"R1\">机械故障</FRET>").fields())
                .isEqualTo(fields(FlightField.FRET, "机械故障", FlightField.FRET_REID, "R1"));
        assertThat(patchOf("FLAB", "<FLAB ARES=\"A7\">ABORTED TAKE-OFF</FLAB>").fields())
                .isEqualTo(fields(FlightField.FLAB, "ABORTED TAKE-OFF", FlightField.FLAB_ARES, "A7"));
        assertRoundTrip(decoded(flop("FRET", "<FRET REID=\"R1\">机械故障</FRET>")));
        assertRoundTrip(decoded(flop("FLAB", "<FLAB ARES=\"A7\">ABORTED TAKE-OFF</FLAB>")));
    }

    @Test
    void anExceptionInChildElementFormKeepsItsPairsBesideItsAttributes() {
        var xml = flop("FDIV", "<FDIV DDES=\"CTU\"><DVAP>CTU</DVAP><DVTM>11MAR241030</DVTM></FDIV>");

        assertThat(((FlightOperation) flight(xml)).patch().fields())
                .isEqualTo(fields(FlightField.FDIV, "DVAP=CTU;DVTM=11MAR241030", FlightField.FDIV_DDES, "CTU"));
        assertRoundTrip(decoded(xml));
    }

    @Test
    void listItemAttributesThatNameItemFieldsFillThem() {
        assertThat(patchOf("GTDT", "<GTDT GTNO=\"1\" GATE=\"G33\"><PGOT>11MAR240750</PGOT></GTDT>").lists().get(FlightList.GTDT))
                .containsExactly(item(1, "GATE", "G33", "PGOT", "11MAR240750"));
    }

    @Test
    void aSequenceThatIsNotANumberIsANullSequenceAndNamedUnmapped() {
        var xml = flop("GTDT", """
                <GTDT GTNO="A1"><GATE>G33</GATE></GTDT>
                <GTDT GTNO=""><GATE>G34</GATE></GTDT>
                <GTDT><GATE>G35</GATE></GTDT>
                <GTDT GTNO="2"><GATE>G36</GATE></GTDT>
                <GTDT GTNO="2"><GATE>G37</GATE></GTDT>""");

        assertThat(((FlightOperation) flight(xml)).patch().lists().get(FlightList.GTDT)).containsExactly(
                item(null, "GATE", "G33"), item(null, "GATE", "G34"), item(null, "GATE", "G35"),
                item(2, "GATE", "G36"), item(2, "GATE", "G37"));
        assertThat(unmapped(xml)).containsExactly("FLOP/GTDT/@GTNO");
    }

    // ---------------------------------------------------------------------------------------------------------
    // §5: the new subtypes and items
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void exceptionStatusCarriesCodeAndReason() {
        assertThat(patchOf("EXSS", "<EXSC>DELAY</EXSC><EXSR>天气原因</EXSR>").fields())
                .isEqualTo(fields(FlightField.EXSC, "DELAY", FlightField.EXSR, "天气原因"));
        assertThat(patchOf("EXSS", "<EXSS>DLY</EXSS><REMC>v1 remark</REMC>").fields())
                .as("version 1's elements are still read").isEqualTo(fields(FlightField.EXSS, "DLY", FlightField.REMC, "v1 remark"));
        assertThat(patchOf("EXSS", "<EXSC/><EXSR></EXSR>").fields()).isEqualTo(fields(FlightField.EXSC, CLEARED, FlightField.EXSR, CLEARED));
        assertRoundTrip(decoded(flop("EXSS", "<EXSC>DELAY</EXSC><EXSR>天气原因</EXSR>")));
    }

    @Test
    void pushBackRecordsRepeatWithTheirSequence() {
        var xml = flop("PSHT", """
                <PSHT PSHN="1"><PSTM>11MAR240840</PSTM><PSID>O</PSID><PUST>504</PUST></PSHT>
                <PSHT PSHN="2"><PSTM>11MAR241010</PSTM><PSID>I</PSID><PUST>远机位7</PUST></PSHT>""");

        assertThat(((FlightOperation) flight(xml)).patch().lists()).isEqualTo(Map.of(FlightList.PSHT, List.of(
                item(1, "PSTM", "11MAR240840", "PSID", "O", "PUST", "504"),
                item(2, "PSTM", "11MAR241010", "PSID", "I", "PUST", "远机位7"))));
        assertThat(unmapped(xml)).isEmpty();
        assertRoundTrip(decoded(xml));
        assertThat(patchOf("PSHT", "<PSHT/>").lists()).isEqualTo(Map.of(FlightList.PSHT, List.of()));
    }

    @Test
    void towingRecordsTakeTpnoAsTheirSequence() {
        var xml = flop("TIPT", "<TIPT><TRTM>11MAR240900</TRTM><TRST>212</TRST></TIPT><TIPT TPNO=\"3\"><TRTM>11MAR241100</TRTM>"
                + "<TRST>504</TRST></TIPT>");

        assertThat(((FlightOperation) flight(xml)).patch().lists()).isEqualTo(Map.of(FlightList.TIPT, List.of(
                item(null, "TRTM", "11MAR240900", "TRST", "212"), item(3, "TRTM", "11MAR241100", "TRST", "504"))));
        assertRoundTrip(decoded(xml));
        assertThat(patchOf("TIPT", "<TIPT></TIPT>").lists()).isEqualTo(Map.of(FlightList.TIPT, List.of()));
    }

    @Test
    void portCarriesTimeAndIndicatorAsChildren() {
        var xml = flop("PORT", "<PORT><POTM>11MAR240815</POTM><POID>O</POID></PORT>");

        assertThat(((FlightOperation) flight(xml)).patch().fields()).isEqualTo(fields(FlightField.PORT_POTM, "11MAR240815",
                FlightField.PORT_POID, "O", FlightField.PORT_OPEN, "11MAR240815"));
        assertThat(encoded(xml)).contains("<PORT><POTM>11MAR240815</POTM><POID>O</POID></PORT>");
        assertRoundTrip(decoded(xml));
        assertThat(patchOf("PORT", "<PORT><POID/></PORT>").fields()).isEqualTo(fields(FlightField.PORT_POID, CLEARED));
        assertThat(patchOf("PORT", "<PORT/>").fields()).isEqualTo(fields(FlightField.PORT_POTM, CLEARED,
                FlightField.PORT_POID, CLEARED, FlightField.PORT_OPEN, CLEARED, FlightField.PORT_CLOSE, CLEARED));
        assertRoundTrip(decoded(flop("PORT", "<PORT><POID/></PORT>")));
    }

    @Test
    void vipCountsComeAloneOrTogether() {
        assertThat(patchOf("VIPP", "<VIPP>3</VIPP><VIPR>1</VIPR>").fields()).isEqualTo(fields(FlightField.VIPP, "3", FlightField.VIPR, "1"));
        assertThat(patchOf("VIPR", "<VIPR>2</VIPR>").fields()).isEqualTo(fields(FlightField.VIPR, "2"));
        assertThat(patchOf("VIPP", "<VIPP/>").fields()).isEqualTo(fields(FlightField.VIPP, CLEARED));
        assertRoundTrip(decoded(flop("VIPP", "<VIPP>3</VIPP><VIPR>1</VIPR>")));
    }

    @Test
    void servicesAndVipRecordsCarryTheirRealElements() {
        var srvt = flop("SRVT", "<SRVT><SRTC>WCHR</SRTC><SRQT>2</SRQT><SRST>11MAR240700</SRST><SRET>11MAR240730</SRET>"
                + "<SRPR>地服</SRPR><SANR>N1</SANR><SARR>轮椅不足</SARR></SRVT><SRVT><SRTC>UMNR</SRTC><SRQT>1</SRQT></SRVT>");
        var vipf = flop("VIPF", "<VIPF><VPCD>V001</VPCD><VFES>贵宾厅一</VFES></VIPF><VIPF><VPCD>V002</VPCD></VIPF>");

        assertThat(((FlightOperation) flight(srvt)).patch().lists().get(FlightList.SRVT)).containsExactly(
                item(null, "SRTC", "WCHR", "SRQT", "2", "SRST", "11MAR240700", "SRET", "11MAR240730", "SRPR", "地服",
                        "SANR", "N1", "SARR", "轮椅不足"),
                item(null, "SRTC", "UMNR", "SRQT", "1"));
        assertThat(((FlightOperation) flight(vipf)).patch().lists().get(FlightList.VIPF)).containsExactly(
                item(null, "VPCD", "V001", "VFES", "贵宾厅一"), item(null, "VPCD", "V002"));
        assertThat(unmapped(srvt)).isEmpty();
        assertThat(unmapped(vipf)).isEmpty();
        assertRoundTrip(decoded(srvt));
        assertRoundTrip(decoded(vipf));
        assertThat(patchOf("SRVT", "<SRVT></SRVT>").lists()).as("an empty element clears the list")
                .isEqualTo(Map.of(FlightList.SRVT, List.of()));
    }

    @Test
    void chutesCarryTheirActualBeginAndEnd() {
        var xml = flop("CHDT", "<CHDT CHNO=\"1\"><CHUT>CH0021</CHUT><CCLS>X</CCLS><PCBT>11MAR240650</PCBT>"
                + "<PCET>11MAR240800</PCET><CBTM>11MAR240655</CBTM><CETM>11MAR240810</CETM><CTYP>D</CTYP></CHDT>");

        assertThat(((FlightOperation) flight(xml)).patch().lists().get(FlightList.CHDT)).containsExactly(
                item(1, "CHUT", "CH0021", "CCLS", "X", "PCBT", "11MAR240650", "PCET", "11MAR240800",
                        "CBTM", "11MAR240655", "CETM", "11MAR240810", "CTYP", "D"));
        assertThat(unmapped(xml)).isEmpty();
        assertRoundTrip(decoded(xml));
    }

    /** One real-form body per subtype of §5, each carrying something its subtype names. */
    private static String realBodyOf(FlopSubtype subtype) {
        return switch (subtype) {
            case GTDT -> "<GTDT GTNO=\"1\"><GATE>G33</GATE><PGOT>11MAR240750</PGOT><PGCT>11MAR240820</PGCT></GTDT>";
            case CKDT -> "<CKDT CKNO=\"1\"><CHKC>01</CHKC><CCLS>Y</CCLS><CTYP>国内</CTYP></CKDT>";
            case CLDT -> "<CLDT CLNO=\"1\"><BELT>05</BELT><BTYP>D</BTYP></CLDT>";
            case PSDT -> "<PSDT PSNO=\"1\"><PSST>504</PSST><STST>11MAR240700</STST><STET>11MAR240850</STET></PSDT>";
            case CHDT -> "<CHDT CHNO=\"1\"><CHUT>CH1</CHUT><CBTM>11MAR240655</CBTM><CETM>11MAR240810</CETM></CHDT>";
            case DELY -> "<DELY CODE=\"93\" STRT=\"11MAR240835\" DURA=\"0045\">前序航班晚到</DELY>";
            case ABTM -> "<ABTM ASNO=\"1\"><ABDG>212</ABDG><ABOP>D</ABOP><AOTM>11MAR240825</AOTM></ABTM>";
            case CHOT -> "<CHOT CSNO=\"1\"><CHTM>11MAR240830</CHTM><CHID>ON</CHID><CHST>504</CHST></CHOT>";
            case ROUT -> "<ROUT RTNO=\"1\"><APCD>PEK</APCD><SCAT>11MAR241100</SCAT><SCDT/></ROUT>";
            case ERUT -> "<ERUT RTNO=\"1\"><APCD>CTU</APCD><SCDT>11MAR240835</SCDT></ERUT>";
            case SRVT -> "<SRVT><SRTC>WCHR</SRTC><SRQT>2</SRQT></SRVT>";
            case VIPF -> "<VIPF><VPCD>V001</VPCD><VFES>贵宾厅</VFES></VIPF>";
            case PSHT -> "<PSHT PSHN=\"1\"><PSTM>11MAR240840</PSTM><PSID>O</PSID><PUST>504</PUST></PSHT>";
            case TIPT -> "<TIPT><TRTM>11MAR240900</TRTM><TRST>212</TRST></TIPT>";
            case EXSS -> "<EXSC>DELAY</EXSC><EXSR>天气</EXSR>";
            case FDIV -> "<FDIV DDES=\"HKG\" DDIR=\"TO\">WEATHER</FDIV>";
            case FRET -> "<FRET REID=\"R1\">机械故障</FRET>";
            case FLAB -> "<FLAB ARES=\"A7\">旅客原因</FLAB>";
            case PORT -> "<PORT><POTM>11MAR240815</POTM><POID>O</POID></PORT>";
            case VIPP, VIPR -> "<VIPP>3</VIPP><VIPR>1</VIPR>";
            case TAOP -> "<TAOP>CA</TAOP><TAFL>CA1406</TAFL><TAID>1004</TAID>";
            case HNAG -> "<PHAG>AMECO</PHAG><FHAG/><MHAG>东航地服</MHAG>";
            case CSHR -> "<CSOP>CA</CSOP><CSFT>CA1405</CSFT><MAID/>";
            default -> "<" + subtype.name() + ">" + subtype.name() + "-值</" + subtype.name() + ">";
        };
    }

    @ParameterizedTest(name = "FLOP {0} in its real form is read whole and written back the same")
    @EnumSource(FlopSubtype.class)
    void everySubtypeInItsRealForm(FlopSubtype subtype) {
        var xml = flop(subtype.name(), realBodyOf(subtype));
        var operation = (FlightOperation) flight(xml);

        assertThat(operation.subtype()).isEqualTo(subtype);
        subtype.list().ifPresent(list -> assertThat(operation.patch().lists().get(list)).isNotEmpty());
        if (subtype.list().isEmpty()) {
            assertThat(operation.patch().fields()).isNotEmpty();
            assertThat(subtype.fields()).containsAll(operation.patch().fields().keySet());
        }
        assertThat(unmapped(xml)).isEmpty();
        assertRoundTrip(decoded(xml));
    }

    // ---------------------------------------------------------------------------------------------------------
    // §4: a schedule record may carry any list or scalar of §5
    // ---------------------------------------------------------------------------------------------------------

    private static final String RECORD_V2 = """
            <FLTR><FLID>1001</FLID><ALCD>CA</ALCD><FLNO>CA1405</FLNO><MVIN>D</MVIN><SODT>11MAR240835</SODT>
              <EXSC>DELAY</EXSC><EXSR>天气原因</EXSR>
              <FDIV DDES="HKG" DDIR="TO">目的地天气</FDIV>
              <PORT><POTM>11MAR240815</POTM><POID>O</POID></PORT><VIPP>2</VIPP>
              <DELY CODE="93" STRT="11MAR240835" DURA="0045">LATE INBOUND</DELY>
              <PSHT PSHN="1"><PSTM>11MAR240840</PSTM><PSID>O</PSID><PUST>504</PUST></PSHT>
              <ROUT RTNO="1"><APCD>PEK</APCD><SCAT>11MAR241100</SCAT><SCDT/></ROUT>
            </FLTR>""";

    private static final FlightPatch RECORD_V2_PATCH = new FlightPatch(fields(
            FlightField.ALCD, "CA", FlightField.FLNO, "CA1405", FlightField.MVIN, "D", FlightField.SODT, "11MAR240835",
            FlightField.EXSC, "DELAY", FlightField.EXSR, "天气原因", FlightField.FDIV, "目的地天气",
            FlightField.FDIV_DDES, "HKG", FlightField.FDIV_DDIR, "TO", FlightField.PORT_POTM, "11MAR240815",
            FlightField.PORT_POID, "O", FlightField.PORT_OPEN, "11MAR240815", FlightField.VIPP, "2"), Map.of(
            FlightList.DELY, List.of(item(null, "CODE", "93", "STRT", "11MAR240835", "DURA", "0045", "DESC", "LATE INBOUND")),
            FlightList.PSHT, List.of(item(1, "PSTM", "11MAR240840", "PSID", "O", "PUST", "504")),
            FlightList.ROUT, List.of(item(1, "APCD", "PEK", "SCAT", "11MAR241100"))));

    @ParameterizedTest(name = "SCHD {0} reads the v2 elements of a record")
    @EnumSource(ScheduleKind.class)
    void aScheduleRecordCarriesTheOperationsElements(ScheduleKind kind) {
        var xml = "<MSG>" + meta("SCHD", kind.name()) + "<SCHD><RECS>1</RECS>" + RECORD_V2 + "</SCHD></MSG>";

        assertThat(flight(xml)).isEqualTo(new ScheduleMessage(kind, 1, List.of(new FlightRecord("1001", RECORD_V2_PATCH))));
        assertThat(unmapped(xml)).isEmpty();
        assertRoundTrip(decoded(xml));
    }

    // ---------------------------------------------------------------------------------------------------------
    // §3: nothing is lost silently
    // ---------------------------------------------------------------------------------------------------------

    @Test
    void whatNothingMapsIsNamedOnceByItsPath() {
        var xml = """
                <MSG xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="sis.xsd" VERS="2">
                  <META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20260311223126</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP>
                    <XTRA>x</XTRA><SNDR2/></META>
                  <SCHD><RECS>2</RECS><NOTE>n</NOTE>
                    <FLTR><FLID>1</FLID><SODT>11MAR240835</SODT><XTRA>a</XTRA><STND GRP="B">504</STND>
                      <GTDT GTNO="1" XTRA="y"><GATE>G1</GATE><GNEW>z</GNEW></GTDT>
                      <FDIV DDES="HKG" DXXX="1">WX</FDIV><PORT>loose<POTM>11MAR240815</POTM><POXX/></PORT>
                    </FLTR>
                    <FLTR><FLID>2</FLID><SODT>11MAR240835</SODT><XTRA>again</XTRA></FLTR>
                  </SCHD>
                  <XTRA/>
                </MSG>""";

        assertThat(unmapped(xml)).containsExactly("MSG/@VERS", "META/XTRA", "META/SNDR2", "SCHD/NOTE", "FLTR/XTRA",
                "FLTR/STND/@GRP", "FLTR/FDIV/@DXXX", "FLTR/PORT/#text", "FLTR/PORT/POXX", "FLTR/GTDT/@XTRA",
                "FLTR/GTDT/GNEW", "MSG/XTRA");
    }

    @Test
    void textWhereNoFieldTakesItIsNamed() {
        assertThat(unmapped(flop("GTDT", "<GTDT GTNO=\"1\">stray<GATE>G1</GATE></GTDT>"))).containsExactly("FLOP/GTDT/#text");
        assertThat(unmapped(flop("GTDT", "<GTDT GTNO=\"1\"><GATE X=\"1\">G1<SUB/></GATE></GTDT>")))
                .containsExactly("FLOP/GTDT/GATE/@X", "FLOP/GTDT/GATE/SUB");
        assertThat(unmapped(flop("STND", "<STND>504</STND><FDIV_DDES>HKG</FDIV_DDES>")))
                .as("a part is read from its element only").containsExactly("FLOP/FDIV_DDES");
    }

    @Test
    void aDeletionNamesWhatItDoesNotRead() {
        assertThat(unmapped("<MSG>" + meta("FLOP", "FDEL") + "<FLOP><FLID>1</FLID><FFID>x</FFID><FDEL/><STND>5</STND></FLOP></MSG>"))
                .containsExactly("FLOP/STND");
    }

    @Test
    void anUnsupportedMessageIsNotReadSoListsNothing() {
        assertThat(unmapped("<MSG>" + meta("LDM", "LOAD") + "<LDM><anything/></LDM><XTRA/></MSG>")).isEmpty();
    }
}
