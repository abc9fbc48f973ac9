package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.codec.CodecFixtures.assertRoundTrip;
import static io.msgx.pipeline.codec.CodecFixtures.decoded;
import static io.msgx.pipeline.codec.CodecFixtures.fields;
import static io.msgx.pipeline.codec.CodecFixtures.flight;
import static io.msgx.pipeline.codec.CodecFixtures.item;
import static io.msgx.pipeline.codec.CodecFixtures.meta;
import static io.msgx.pipeline.codec.CodecFixtures.ordered;
import static io.msgx.pipeline.codec.CodecFixtures.sentAt;
import static org.assertj.core.api.Assertions.assertThat;

/** Every message kind of sis-format.md, decoded to its values and encoded back. */
class SisExamplesTest {

    private static final String DNLD = """
            <?xml version="1.0" encoding="UTF-8"?>
            <MSG xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="sis.xsd">
              <META>
                <SNDR>AODB</SNDR>
                <RCVR>RMS</RCVR>
                <SEQN>345935</SEQN>
                <DTTM>20260311223126</DTTM>
                <TYPE>SCHD</TYPE>
                <STYP>DNLD</STYP>
                <NEWX>a future element</NEWX>
              </META>
              <SCHD>
                <RECS>2</RECS>
                <FLTR>
                  <FLID> 1001 </FLID>
                  <FFID>CA-CA1405-D-11MAR240835-D</FFID>
                  <ALCD>CA</ALCD> <FLNO>CA1405</FLNO>
                  <MVIN>D</MVIN>
                  <SODT>11MAR240835</SODT>
                  <FLTY>W</FLTY> <FLIN>D</FLIN> <ACFT>321</ACFT> <RENO>B6591</RENO>
                  <TRML>T2</TRML> <MAXP>185</MAXP> <STND>504</STND> <RUNW>02L</RUNW>
                  <FTSS>SCH</FTSS> <EXSS/> <REMC></REMC>
                  <ESTT>11MAR240840</ESTT> <ACTT/>
                  <TAOP>CA</TAOP> <TAFL>CA1406</TAFL> <TAID>1004</TAID>
                  <PHAG>AMECO</PHAG> <FHAG/> <MHAG>SWISS</MHAG>
                  <WXYZ>unknown scalar</WXYZ>
                  <ROUT RTNO="1"><APCD>PEK</APCD><SCAT>11MAR241100</SCAT><SCDT/></ROUT>
                  <ROUT RTNO="2"><APCD>SHA</APCD><SCAT>11MAR241400</SCAT></ROUT>
                  <ERUT RTNO="1"><APCD>CTU</APCD><SCDT>11MAR240835</SCDT></ERUT>
                  <GTDT GTNO="1"><GATE>G28</GATE><PGOT>11MAR240750</PGOT><PGCT>11MAR240820</PGCT><GOTM/><GCTM/><GTYP>D</GTYP></GTDT>
                  <GTDT GTNO="2"><GATE>G28</GATE><XTRA>ignored</XTRA></GTDT>
                  <CKDT CKNO="1"><CHKC>01</CHKC><CCLS>Y</CCLS><PCOT>11MAR240635</PCOT><PCCT>11MAR240755</PCCT><COTM/><CCTM/><CTYP>D</CTYP></CKDT>
                  <CLDT CLNO="1"><BELT>05</BELT><BCLS>Y</BCLS><PCOT>11MAR240700</PCOT><PCCT>11MAR240800</PCCT><BTYP>D</BTYP></CLDT>
                  <PSDT PSNO="1"><PSST>504</PSST><STST>11MAR240700</STST><STET>11MAR240850</STET></PSDT>
                  <CHDT CHNO="1"><CHUT>CH0021</CHUT><CCLS>X</CCLS><PCBT>11MAR240650</PCBT><PCET>11MAR240800</PCET><CTYP>D</CTYP></CHDT>
                  <DELY DLNO="1"><CODE>93</CODE><STRT>11MAR240835</STRT><DURA>0045</DURA><DESC>LATE INBOUND</DESC></DELY>
                  <ABTM ASNO="1"><ABDG>212</ABDG><ABOP>D</ABOP><AOTM>11MAR240825</AOTM></ABTM>
                  <CHOT CSNO="1"><CHTM>11MAR240830</CHTM><CHID>ON</CHID><CHST>504</CHST></CHOT>
                  <SRVT SVNO="1"><SVCD>CAT</SVCD><SVTM>11MAR240700</SVTM><SVRM>catering &amp; water</SVRM></SRVT>
                  <VIPF VPNO="1"><VPNM>Li Wei</VPNM><VPRK>VVIP</VPRK><VPRM><![CDATA[<escort>]]></VPRM></VIPF>
                  <PSHT PSHN="1"><PSTM>11MAR240840</PSTM><PSID>O</PSID><PUST>504</PUST></PSHT>
                  <TIPT><TRTM>11MAR240900</TRTM><TRST>212</TRST></TIPT>
                </FLTR>
                <FLTR>
                  <FLID>1002</FLID>
                  <ALCD>MU</ALCD><FLNO>MU9405</FLNO><MVIN>D</MVIN><SODT>11mar240835</SODT>
                  <CSOP>CA</CSOP><CSFT>CA1405</CSFT><MAID>1001</MAID>
                  <GTDT/>
                  <CKDT></CKDT>
                </FLTR>
              </SCHD>
            </MSG>
            """;

    @Test
    void scheduleDownloadWithEveryListAndACodeShareChild() {
        DecodedMessage message = decoded(DNLD);

        assertThat(message.meta()).isEqualTo(new MessageMeta("AODB", "RMS", "SCHD", "DNLD", "345935", sentAt(), null));
        assertThat(message.kind()).isEqualTo(new MsgKind.Schd(ScheduleKind.DNLD));
        var schedule = (ScheduleMessage) message.flightMessage().orElseThrow();
        assertThat(schedule.kind()).isEqualTo(ScheduleKind.DNLD);
        assertThat(schedule.declaredCount()).isEqualTo(2);
        assertThat(schedule.records()).hasSize(2);

        FlightRecord master = schedule.records().get(0);
        assertThat(master.flid()).isEqualTo("1001");
        FlightPatch patch = master.patch();
        assertThat(patch.fields()).containsExactlyInAnyOrderEntriesOf(fields(
                FlightField.FFID, "CA-CA1405-D-11MAR240835-D", FlightField.ALCD, "CA", FlightField.FLNO, "CA1405",
                FlightField.MVIN, "D", FlightField.SODT, "11MAR240835", FlightField.FLTY, "W", FlightField.FLIN, "D",
                FlightField.ACFT, "321", FlightField.RENO, "B6591", FlightField.TRML, "T2", FlightField.MAXP, "185",
                FlightField.STND, "504", FlightField.RUNW, "02L", FlightField.FTSS, "SCH",
                FlightField.EXSS, FieldChange.Cleared.INSTANCE, FlightField.REMC, FieldChange.Cleared.INSTANCE,
                FlightField.ESTT, "11MAR240840", FlightField.ACTT, FieldChange.Cleared.INSTANCE,
                FlightField.TAOP, "CA", FlightField.TAFL, "CA1406", FlightField.TAID, "1004",
                FlightField.PHAG, "AMECO", FlightField.FHAG, FieldChange.Cleared.INSTANCE, FlightField.MHAG, "SWISS"));
        assertThat(patch.lists().keySet()).containsExactlyInAnyOrder(FlightList.values());
        assertThat(patch.lists().get(FlightList.ROUT)).containsExactly(
                item(1, "APCD", "PEK", "SCAT", "11MAR241100"),
                item(2, "APCD", "SHA", "SCAT", "11MAR241400"));
        assertThat(patch.lists().get(FlightList.ERUT)).containsExactly(item(1, "APCD", "CTU", "SCDT", "11MAR240835"));
        assertThat(patch.lists().get(FlightList.GTDT)).containsExactly(
                item(1, "GATE", "G28", "PGOT", "11MAR240750", "PGCT", "11MAR240820", "GTYP", "D"),
                item(2, "GATE", "G28"));
        assertThat(patch.lists().get(FlightList.CKDT)).containsExactly(
                item(1, "CHKC", "01", "CCLS", "Y", "PCOT", "11MAR240635", "PCCT", "11MAR240755", "CTYP", "D"));
        assertThat(patch.lists().get(FlightList.CLDT)).containsExactly(
                item(1, "BELT", "05", "BCLS", "Y", "PCOT", "11MAR240700", "PCCT", "11MAR240800", "BTYP", "D"));
        assertThat(patch.lists().get(FlightList.PSDT)).containsExactly(
                item(1, "PSST", "504", "STST", "11MAR240700", "STET", "11MAR240850"));
        assertThat(patch.lists().get(FlightList.CHDT)).containsExactly(
                item(1, "CHUT", "CH0021", "CCLS", "X", "PCBT", "11MAR240650", "PCET", "11MAR240800", "CTYP", "D"));
        assertThat(patch.lists().get(FlightList.DELY)).containsExactly(
                item(1, "CODE", "93", "STRT", "11MAR240835", "DURA", "0045", "DESC", "LATE INBOUND"));
        assertThat(patch.lists().get(FlightList.ABTM)).containsExactly(item(1, "ABDG", "212", "ABOP", "D", "AOTM", "11MAR240825"));
        assertThat(patch.lists().get(FlightList.CHOT)).containsExactly(item(1, "CHTM", "11MAR240830", "CHID", "ON", "CHST", "504"));
        assertThat(patch.lists().get(FlightList.SRVT)).containsExactly(
                item(1, "SVCD", "CAT", "SVTM", "11MAR240700", "SVRM", "catering & water"));
        assertThat(patch.lists().get(FlightList.VIPF)).containsExactly(item(1, "VPNM", "Li Wei", "VPRK", "VVIP", "VPRM", "<escort>"));
        assertThat(patch.lists().get(FlightList.PSHT)).containsExactly(item(1, "PSTM", "11MAR240840", "PSID", "O", "PUST", "504"));
        assertThat(patch.lists().get(FlightList.TIPT)).containsExactly(item(null, "TRTM", "11MAR240900", "TRST", "212"));
        assertThat(CodecFixtures.unmapped(DNLD)).containsExactly("META/NEWX", "FLTR/WXYZ", "FLTR/GTDT/XTRA");

        FlightRecord child = schedule.records().get(1);
        assertThat(child.flid()).isEqualTo("1002");
        assertThat(child.patch().fields()).containsExactlyInAnyOrderEntriesOf(fields(
                FlightField.ALCD, "MU", FlightField.FLNO, "MU9405", FlightField.MVIN, "D", FlightField.SODT, "11mar240835",
                FlightField.CSOP, "CA", FlightField.CSFT, "CA1405", FlightField.MAID, "1001"));
        assertThat(child.patch().lists()).isEqualTo(Map.of(FlightList.GTDT, List.of(), FlightList.CKDT, List.of()));

        assertRoundTrip(message);
    }

    @Test
    void scheduleResponseCarriesTheRequestSequence() {
        DecodedMessage message = decoded("""
                <MSG><META><SNDR>AODB</SNDR><SEQN>77</SEQN><DDTM>20260311060000</DDTM><TYPE>schd</TYPE><STYP>resp</STYP>
                  <RQSN>4711</RQSN></META>
                  <SCHD><RECS> 1 </RECS><FLTR><FLID>2001</FLID><MVIN>A</MVIN><SODT>11MAR241230</SODT></FLTR></SCHD>
                </MSG>""");

        assertThat(message.meta()).isEqualTo(new MessageMeta("AODB", null, "SCHD", "RESP", "77",
                LocalDateTime.of(2026, 3, 11, 6, 0), "4711"));
        assertThat(message.kind()).isEqualTo(new MsgKind.Schd(ScheduleKind.RESP));
        assertThat(message.flightMessage()).contains(new ScheduleMessage(ScheduleKind.RESP, 1, List.of(
                new FlightRecord("2001", new FlightPatch(fields(FlightField.MVIN, "A", FlightField.SODT, "11MAR241230"), Map.of())))));
        assertRoundTrip(message);
    }

    @Test
    void scheduleAdditionWithoutRecsAndAMissingFlid() {
        DecodedMessage message = decoded("<MSG>" + meta("SCHD", "ADFT")
                + "<SCHD><FLTR><ALCD>CA</ALCD><SODT>12MAR240900</SODT><PSDT PSNO=\"3\"><PSST>12</PSST></PSDT></FLTR></SCHD></MSG>");

        assertThat(message.kind()).isEqualTo(new MsgKind.Schd(ScheduleKind.ADFT));
        var schedule = (ScheduleMessage) message.flightMessage().orElseThrow();
        assertThat(schedule.declaredCount()).isNull();
        assertThat(schedule.records()).containsExactly(new FlightRecord(null, new FlightPatch(
                fields(FlightField.ALCD, "CA", FlightField.SODT, "12MAR240900"),
                Map.of(FlightList.PSDT, List.of(item(3, "PSST", "12"))))));
        assertRoundTrip(message);
    }

    @Test
    void flopReplacingAList() {
        DecodedMessage message = decoded("""
                <MSG><META><SNDR>AODB</SNDR><SEQN>9</SEQN><DTTM>20260311071500</DTTM><TYPE>FLOP</TYPE><STYP>GTDT</STYP></META>
                  <FLOP><FLID>1001</FLID><FFID>CA-CA1405-D-11MAR240835-D</FFID>
                    <GTDT GTNO="1"><GATE>G33</GATE><PGOT>11MAR240750</PGOT><PGCT>11MAR240820</PGCT></GTDT>
                    <GTDT><GATE>G34</GATE></GTDT>
                    <GTDT/>
                  </FLOP></MSG>""");

        assertThat(message.kind()).isEqualTo(new MsgKind.Flop(FlopSubtype.GTDT));
        assertThat(message.flightMessage()).contains(new FlightOperation(FlopSubtype.GTDT, "1001", new FlightPatch(
                fields(FlightField.FFID, "CA-CA1405-D-11MAR240835-D"),
                Map.of(FlightList.GTDT, List.of(
                        item(1, "GATE", "G33", "PGOT", "11MAR240750", "PGCT", "11MAR240820"),
                        item(null, "GATE", "G34"))))));
        assertRoundTrip(message);
    }

    @Test
    void flopClearingAList() {
        var operation = (FlightOperation) flight("<MSG>" + meta("FLOP", "CKDT")
                + "<FLOP><FLID>1001</FLID><CKDT/><CKDT></CKDT></FLOP></MSG>");

        assertThat(operation.patch().lists()).isEqualTo(Map.of(FlightList.CKDT, List.of()));
        assertThat(operation.patch().fields()).isEmpty();
    }

    @Test
    void flopChangingAScalarAndClearingOne() {
        DecodedMessage message = decoded("<MSG>" + meta("FLOP", "STND")
                + "<FLOP><FLID>1001</FLID><STND>  506 </STND><REMC/></FLOP></MSG>");

        assertThat(message.flightMessage()).contains(new FlightOperation(FlopSubtype.STND, "1001",
                new FlightPatch(fields(FlightField.STND, "506", FlightField.REMC, FieldChange.Cleared.INSTANCE), Map.of())));
        assertRoundTrip(message);
    }

    @Test
    void flopGroupsTurnaroundHandlingAgentsAndCodeShare() {
        var taop = decoded("<MSG>" + meta("FLOP", "TAOP")
                + "<FLOP><FLID>1001</FLID><TAOP>CA</TAOP><TAFL>CA1406</TAFL><TAID>1004</TAID></FLOP></MSG>");
        var hnag = decoded("<MSG>" + meta("FLOP", "HNAG")
                + "<FLOP><FLID>1001</FLID><PHAG>AMECO</PHAG><FHAG></FHAG><MHAG>SWISS</MHAG></FLOP></MSG>");
        var cshr = decoded("<MSG>" + meta("FLOP", "CSHR")
                + "<FLOP><FLID>1002</FLID><CSOP>CA</CSOP><CSFT>CA1405</CSFT><MAID/></FLOP></MSG>");

        assertThat(taop.flightMessage()).contains(new FlightOperation(FlopSubtype.TAOP, "1001", new FlightPatch(
                fields(FlightField.TAOP, "CA", FlightField.TAFL, "CA1406", FlightField.TAID, "1004"), Map.of())));
        assertThat(hnag.flightMessage()).contains(new FlightOperation(FlopSubtype.HNAG, "1001", new FlightPatch(
                fields(FlightField.PHAG, "AMECO", FlightField.FHAG, FieldChange.Cleared.INSTANCE, FlightField.MHAG, "SWISS"),
                Map.of())));
        assertThat(cshr.flightMessage()).contains(new FlightOperation(FlopSubtype.CSHR, "1002", new FlightPatch(
                fields(FlightField.CSOP, "CA", FlightField.CSFT, "CA1405", FlightField.MAID, FieldChange.Cleared.INSTANCE),
                Map.of())));
        assertRoundTrip(taop);
        assertRoundTrip(hnag);
        assertRoundTrip(cshr);
    }

    @Test
    void flopExceptionWithChildElementsBecomesPairs() {
        DecodedMessage message = decoded("<MSG>" + meta("FLOP", "FDIV") + """
                <FLOP><FLID>1001</FLID>
                  <FDIV> <DVAP>CTU</DVAP> <DVTM> 11MAR241030 </DVTM> <DVRM/> </FDIV>
                </FLOP></MSG>""");

        assertThat(message.flightMessage()).contains(new FlightOperation(FlopSubtype.FDIV, "1001",
                new FlightPatch(fields(FlightField.FDIV, "DVAP=CTU;DVTM=11MAR241030;DVRM="), Map.of())));
        assertThat(CodecFixtures.CODEC.encode(message.meta(), message.flightMessage().orElseThrow()))
                .contains("<FDIV><DVAP>CTU</DVAP><DVTM>11MAR241030</DVTM><DVRM/></FDIV>");
        assertRoundTrip(message);
    }

    @Test
    void flopExceptionAsPlainText() {
        var operation = (FlightOperation) flight("<MSG>" + meta("FLOP", "FRET")
                + "<FLOP><FLID>1001</FLID><FRET> returned: bird strike </FRET><FLAB/></FLOP></MSG>");

        assertThat(operation.patch().fields()).containsExactlyInAnyOrderEntriesOf(fields(
                FlightField.FRET, "returned: bird strike", FlightField.FLAB, FieldChange.Cleared.INSTANCE,
                FlightField.FLAB_ARES, FieldChange.Cleared.INSTANCE)); // a bare <FLAB/> withdraws the object (D-54)
    }

    @Test
    void deletionAsFlopFdel() {
        DecodedMessage message = decoded("<MSG>" + meta("FLOP", "FDEL") + "<FLOP><FLID>1001</FLID><ALCD>CA</ALCD></FLOP></MSG>");

        assertThat(message.kind()).isEqualTo(new MsgKind.Fdel());
        assertThat(message.flightMessage()).contains(new FlightDeletion("1001"));
        assertRoundTrip(message);
    }

    @Test
    void deletionAsTypeFdelWithEitherBody() {
        DecodedMessage fdelBody = decoded("<MSG>" + meta("FDEL", "NONE") + "<FDEL><FLID>1001</FLID></FDEL></MSG>");
        DecodedMessage flopBody = decoded("<MSG>" + meta("FDEL", "FDEL") + "<FLOP><FLID>1002</FLID></FLOP></MSG>");

        assertThat(fdelBody.kind()).isEqualTo(new MsgKind.Fdel());
        assertThat(fdelBody.flightMessage()).contains(new FlightDeletion("1001"));
        assertThat(flopBody.flightMessage()).contains(new FlightDeletion("1002"));
        assertRoundTrip(fdelBody);
        assertRoundTrip(flopBody);
    }

    @Test
    void referenceAnswerAsRepeatedRecords() {
        DecodedMessage message = decoded("<MSG>" + meta("GATE", "RESP") + """
                <GATE><GTCD>G28</GTCD><DESC>Gate 28</DESC><TRML>T2</TRML></GATE>
                <GATE><GTCD> G29 </GTCD><DESC/></GATE>
                </MSG>""");

        assertThat(message.kind()).isEqualTo(new MsgKind.Ref("GATE"));
        assertThat(message.flightMessage()).isEmpty();
        ReferenceAnswer answer = message.referenceAnswer().orElseThrow();
        assertThat(answer.referenceType()).isEqualTo("GATE");
        assertThat(answer.records()).containsExactly(
                new ReferenceRecord("G28", ordered("GTCD", "G28", "DESC", "Gate 28", "TRML", "T2")),
                new ReferenceRecord("G29", ordered("GTCD", "G29", "DESC", "")));
        assertThat(answer.records().get(0).document().texts().keySet()).containsExactly("GTCD", "DESC", "TRML");
        assertRoundTrip(message);
    }

    @Test
    void referenceAnswerNestedInOneBodyElement() {
        DecodedMessage message = decoded("<MSG>" + meta("AIRL", "RESP") + """
                <AIRL>
                  <AIRL><AIRL>CA</AIRL><NAME>Air China</NAME></AIRL>
                  <AIRL><AIRL>MU</AIRL><NAME>China Eastern</NAME></AIRL>
                </AIRL></MSG>""");

        assertThat(message.referenceAnswer().orElseThrow().records()).containsExactly(
                new ReferenceRecord("CA", ordered("AIRL", "CA", "NAME", "Air China")),
                new ReferenceRecord("MU", ordered("AIRL", "MU", "NAME", "China Eastern")));
        assertRoundTrip(message);
    }

    @Test
    void emptyReferenceAnswer() {
        DecodedMessage message = decoded("<MSG>" + meta("STND", "RESP") + "<STND/></MSG>");

        assertThat(message.referenceAnswer()).contains(new ReferenceAnswer("STND", List.of()));
        assertRoundTrip(message);
    }

    @Test
    void referenceTypesAreConfigurable() {
        var codec = new JacksonXmlCodec(CodecLimits.DEFAULTS, java.util.Set.of("rwy"));
        var result = (DecodeResult.Decoded) codec.decode("<MSG>" + meta("RWY", "RESP") + "<RWY><RWCD>02L</RWCD></RWY></MSG>");
        var gate = (DecodeResult.Decoded) codec.decode("<MSG>" + meta("GATE", "RESP") + "<GATE><GTCD>1</GTCD></GATE></MSG>");

        assertThat(result.message().referenceAnswer().orElseThrow().records())
                .containsExactly(new ReferenceRecord("02L", Map.of("RWCD", "02L")));
        assertThat(gate.message().kind()).isEqualTo(new MsgKind.Unsupported("GATE", "RESP"));
    }

    @Test
    void ignoredTypeIsUnsupportedWithoutPayload() {
        DecodedMessage message = decoded("<MSG>" + meta("LDM", "LOAD") + "<LDM><anything/>not read</LDM></MSG>");

        assertThat(message.kind()).isEqualTo(new MsgKind.Unsupported("LDM", "LOAD"));
        assertThat(message.flightMessage()).isEmpty();
        assertThat(message.referenceAnswer()).isEmpty();
    }

    @Test
    void aSeasonalScheduleIsItsOwnKindAndItsBodyIsNotRead() {
        var body = "<SCHS><SNAM>S24</SNAM><SDAT>31MAR24</SDAT><EDAT>26OCT24</EDAT><APCD>PEK</APCD><RECS>1</RECS>"
                + "<FLTR><ALCD>CA</ALCD><FLNO>CA1405</FLNO><MVIN>D</MVIN><DYOP>1234567</DYOP><STDT>31MAR24</STDT>"
                + "<EDDT>26OCT24</EDDT><SCHT>0835</SCHT><ROUT><SADC>PEK</SADC><SDDC>CTU</SDDC></ROUT></FLTR></SCHS>";
        for (String styp : List.of("DNLD", "RESP")) {
            DecodedMessage message = decoded("<MSG>" + meta("SCHS", styp) + body + "</MSG>");
            assertThat(message.kind()).isEqualTo(new MsgKind.Seasonal(styp));
            assertThat(message.flightMessage()).isEmpty();
            assertThat(message.referenceAnswer()).isEmpty();
        }
        assertThat(decoded("<MSG>" + meta("SCHS", "UPD") + body + "</MSG>").kind())
                .isEqualTo(new MsgKind.Unsupported("SCHS", "UPD"));
    }

    @Test
    void unknownTypesAndSubtypesAreUnsupported() {
        assertThat(decoded("<MSG>" + meta("WXYZ", "RESP") + "</MSG>").kind()).isEqualTo(new MsgKind.Unsupported("WXYZ", "RESP"));
        assertThat(decoded("<MSG>" + meta("FLOP", "XXXX") + "</MSG>").kind()).isEqualTo(new MsgKind.Unsupported("FLOP", "XXXX"));
        assertThat(decoded("<MSG>" + meta("SCHD", "FULL") + "</MSG>").kind()).isEqualTo(new MsgKind.Unsupported("SCHD", "FULL"));
        assertThat(decoded("<MSG>" + meta("GATE", "RQST") + "</MSG>").kind()).isEqualTo(new MsgKind.Unsupported("GATE", "RQST"));
        for (String ignored : List.of("LDM", "REGN", "RSTA", "EROR")) {
            assertThat(decoded("<MSG>" + meta(ignored, "ANY") + "</MSG>").kind())
                    .isEqualTo(new MsgKind.Unsupported(ignored, "ANY"));
        }
    }

    @Test
    void everyFlopSubtypeIsAFlop() {
        for (FlopSubtype subtype : FlopSubtype.values()) {
            DecodedMessage message = decoded("<MSG>" + meta("FLOP", subtype.name()) + "<FLOP><FLID>1</FLID></FLOP></MSG>");
            assertThat(message.kind()).isEqualTo(new MsgKind.Flop(subtype));
        }
    }

    @Test
    void itemsWithoutValuesAreItemsNotClearMarkers() {
        var operation = (FlightOperation) flight("<MSG>" + meta("FLOP", "DELY")
                + "<FLOP><FLID>1</FLID><DELY DLNO=\" 7 \"/><DELY><NOPE>x</NOPE></DELY></FLOP></MSG>");

        assertThat(operation.patch().lists().get(FlightList.DELY))
                .containsExactly(new ListItem(7, Map.of()), new ListItem(null, Map.of()));
    }
}
