package io.msgx.pipeline.hostile;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.testing.SisMessages;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;

/**
 * Valid SIS messages of every kind the pipeline meets, the raw material the {@link XmlMutator} damages: a
 * daily schedule with lists and a code-share, an ADFT, a schedule answer, one {@code FLOP} of every subtype,
 * both deletion forms, reference answers in both shapes, ignored and unsupported types, and one pretty-printed
 * message with a prolog, namespaces, comments and CDATA. Always built the same way, so a seed and an index
 * name one mutant for good.
 *
 * <p>{@link #opening()} creates the flights the operations name; a batch starts with it so that mutated
 * operations reach the engine with a flight to change, not only {@code no-match:unknown-flight}.
 */
final class SeedCorpus {

    /** The flights every seed talks about. */
    static final List<String> FLIDS = List.of("1001", "1002", "1003", "1004", "1005");

    private static final LocalDateTime SENT_AT = LocalDateTime.of(2024, 3, 11, 6, 0);

    private final List<String> opening;
    private final List<String> all;

    private SeedCorpus(List<String> opening, List<String> all) {
        this.opening = List.copyOf(opening);
        this.all = List.copyOf(all);
    }

    static SeedCorpus build() {
        var sis = new SisMessages();
        var codec = new JacksonXmlCodec();
        var opening = new ArrayList<String>();
        opening.add(sis.schedule(
                fltr("1001", withList(withList(patch("ALCD", "CA", "FLNO", "CA1405", "MVIN", "D", "STND", "504",
                                        "REMC", "on time", "SODT", "11MAR240835"),
                                FlightList.GTDT, item(1, "GATE", "G28", "GTYP", "D", "PGOT", "11MAR240750")),
                        FlightList.ROUT, item(1, "APCD", "PEK", "SCAT", "11MAR241100"), item(2, "APCD", "SHA"))),
                fltr("1002", "11MAR240835", "ALCD", "MU", "FLNO", "MU9405", "MVIN", "D",
                        "CSOP", "CA", "CSFT", "CA1405", "MAID", "1001"),
                fltr("1003", "11MAR240900", "ALCD", "CZ", "FLNO", "CZ3101", "MVIN", "A", "ESTT", "11MAR240905")));
        opening.add(sis.adft(fltr("1004", "11MAR241200", "ALCD", "HU", "FLNO", "HU7181", "MVIN", "D")));

        var all = new ArrayList<>(opening);
        all.add(codec.encode(new MessageMeta("AODB", "RMS", "SCHD", "RESP", "5000", SENT_AT, "77"),
                new ScheduleMessage(ScheduleKind.RESP, 1, List.of(fltr("1005", "11MAR241300", "FLNO", "3U8881")))));
        int n = 0;
        for (var subtype : FlopSubtype.values()) {
            all.add(sis.flop(subtype, FLIDS.get(n++ % FLIDS.size()), patchFor(subtype)));
        }
        all.add(sis.fdel("1003"));
        all.add("<MSG><META><SNDR>AODB</SNDR><SEQN>5001</SEQN><DTTM>20240311060000</DTTM><TYPE>FDEL</TYPE>"
                + "<STYP>FDEL</STYP></META><FDEL><FLID>1004</FLID></FDEL></MSG>");
        all.add("<MSG><META><SNDR>AODB</SNDR><RCVR>RMS</RCVR><SEQN>5002</SEQN><DTTM>20240311060000</DTTM>"
                + "<TYPE>GATE</TYPE><STYP>RESP</STYP><RQSN>12</RQSN></META>"
                + "<GATE><GTCD>G28</GTCD><DESC>Gate 28 &amp; bus</DESC></GATE><GATE><GTCD>G29</GTCD></GATE></MSG>");
        all.add("<MSG><META><SNDR>AODB</SNDR><SEQN>5003</SEQN><DTTM>20240311060000</DTTM><TYPE>STND</TYPE>"
                + "<STYP>RESP</STYP></META><STND><STND><STCD>504</STCD><STTY>C</STTY></STND>"
                + "<STND><STCD>505</STCD></STND></STND></MSG>");
        all.add(sis.other("LDM", "LOAD"));
        all.add(sis.other("REGN", "UPDT"));
        all.add(sis.other("ZZZZ", "NONE"));
        all.add(sis.other("FLOP", "XXXX"));
        all.add(PRETTY);
        return new SeedCorpus(opening, all);
    }

    /** The messages a batch begins with: they create the flights the other seeds name. */
    List<String> opening() {
        return opening;
    }

    /** Every seed, the opening ones included. */
    List<String> all() {
        return all;
    }

    String get(int index) {
        return all.get(index);
    }

    int size() {
        return all.size();
    }

    /** A plausible body for every subtype: each field it may change, or one or two items of its list. */
    private static FlightPatch patchFor(FlopSubtype subtype) {
        if (subtype.list().isPresent()) {
            var list = subtype.list().get();
            var values = new LinkedHashMap<String, String>();
            for (var field : list.itemFields()) {
                values.put(field, list.nestedItems().containsKey(field)
                        ? io.msgx.pipeline.codec.NestedItems.write(List.of(Map.of("VSCD", "VS1", "VTQY", "2")))
                        : field.endsWith("T") || field.endsWith("TM") ? "11MAR241015" : field.substring(0, 2) + "1");
            }
            var first = ListItem.of(1, values);
            var second = item(2, list.itemFields().get(0), "X2");
            return FlightPatch.empty().with(list, List.of(first, second));
        }
        var patch = FlightPatch.empty();
        for (var field : subtype.fields()) {
            patch = patch.with(field, FieldChange.of(valueFor(field)));
        }
        return patch;
    }

    private static String valueFor(FlightField field) {
        return switch (field) {
            case MAID -> "1001";
            case TAID -> "1004";
            case MAXP -> "180";
            case PORT_POID -> "C"; // with PORT_OPEN and PORT_CLOSE in the body, the last PORT written is the close
            case FDIV, FRET, FLAB -> "DVAP=CTU;DVRM=WX";
            default -> field.kind() == FlightField.Kind.TIME ? "11MAR241010" : field.code().substring(0, 2) + "7";
        };
    }

    /** How a real AODB message may look: prolog, namespace attributes, indentation, a comment, CDATA. */
    private static final String PRETTY = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- sent by the AODB -->
            <MSG xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="sis.xsd">
              <META>
                <SNDR>AODB</SNDR>
                <RCVR>RMS</RCVR>
                <SEQN>5004</SEQN>
                <DTTM>20240311060000</DTTM>
                <TYPE>SCHD</TYPE>
                <STYP>DNLD</STYP>
              </META>
              <SCHD>
                <RECS>1</RECS>
                <FLTR>
                  <FLID> 1005 </FLID>
                  <ALCD>3U</ALCD> <FLNO>3U8881</FLNO> <MVIN>D</MVIN>
                  <SODT>11MAR241300</SODT>
                  <REMC><![CDATA[<late> & "tired"]]></REMC>
                  <FDIV><DVAP>CTU</DVAP><DVRM/></FDIV>
                  <GTDT GTNO="1"><GATE>G30</GATE><GTYP>D</GTYP></GTDT>
                  <VIPF VPNO="1"><VPNM>Li Wei</VPNM><VPRM>中文 &#x1F680;</VPRM></VIPF>
                </FLTR>
              </SCHD>
            </MSG>
            """;
}
