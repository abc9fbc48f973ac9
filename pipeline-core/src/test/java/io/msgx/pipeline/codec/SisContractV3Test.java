package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.SisTime;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.codec.CodecFixtures.CODEC;
import static io.msgx.pipeline.codec.CodecFixtures.assertRoundTrip;
import static io.msgx.pipeline.codec.CodecFixtures.decoded;
import static io.msgx.pipeline.codec.CodecFixtures.fields;
import static io.msgx.pipeline.codec.CodecFixtures.flight;
import static io.msgx.pipeline.codec.CodecFixtures.item;
import static io.msgx.pipeline.codec.CodecFixtures.malformed;
import static io.msgx.pipeline.codec.CodecFixtures.meta;
import static io.msgx.pipeline.codec.CodecFixtures.unmapped;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What sis-format version 3 (§10) adds to the codec: the door's two times, several {@code FLOP} bodies,
 * {@code SCHD/DEL}, the fields the samples never showed, unknown elements kept as data, and the times.
 */
class SisContractV3Test {

    private static String record(String body) {
        return "<MSG>" + meta("SCHD", "DNLD") + "<SCHD><RECS>1</RECS><FLTR><FLID>1001</FLID><SODT>11MAR240835</SODT>"
                + body + "</FLTR></SCHD></MSG>";
    }

    private static FlightPatch recordPatch(String body) {
        return ((ScheduleMessage) flight(record(body))).records().get(0).patch();
    }

    private static String flops(String styp, String... bodies) {
        return "<MSG>" + meta("FLOP", styp) + String.join("", bodies) + "</MSG>";
    }

    @Test
    void a_record_carries_the_door_open_and_the_door_close_apart_and_the_pair_is_the_last_seen() {
        var patch = recordPatch("<PORT><POTM>11MAR240801</POTM><POID>O</POID></PORT>"
                + "<PORT><POTM>11MAR240822</POTM><POID>C</POID></PORT>");

        assertThat(patch.fields()).containsAllEntriesOf(fields(FlightField.PORT_OPEN, "11MAR240801",
                FlightField.PORT_CLOSE, "11MAR240822", FlightField.PORT_POTM, "11MAR240822", FlightField.PORT_POID, "C"));
        assertThat(CODEC.encode(decoded(record("<PORT><POTM>11MAR240801</POTM><POID>O</POID></PORT>"
                + "<PORT><POTM>11MAR240822</POTM><POID>C</POID></PORT>")).meta(), flight(record(
                "<PORT><POTM>11MAR240801</POTM><POID>O</POID></PORT><PORT><POTM>11MAR240822</POTM><POID>C</POID></PORT>"))))
                .contains("<PORT><POTM>11MAR240801</POTM><POID>O</POID></PORT><PORT><POTM>11MAR240822</POTM>"
                        + "<POID>C</POID></PORT>");
        assertRoundTrip(decoded(record("<PORT><POTM>11MAR240801</POTM><POID>O</POID></PORT>"
                + "<PORT><POTM>11MAR240822</POTM><POID>C</POID></PORT>")));
        assertThat(recordPatch("<PORT><POTM>11MAR240801</POTM><POID>X</POID></PORT>").fields())
                .doesNotContainKeys(FlightField.PORT_OPEN, FlightField.PORT_CLOSE);
    }

    @Test
    void an_element_other_than_port_still_may_not_come_twice() {
        assertThat(malformed(record("<STND>1</STND><STND>2</STND>"))).isEqualTo("FLTR #1: STND appears twice");
        assertThat(malformed(record("<PORT><POTM>11MAR240801</POTM><POTM>11MAR240802</POTM></PORT>")))
                .isEqualTo("FLTR #1: PORT/POTM appears twice");
    }

    @Test
    void several_flop_bodies_are_one_batch_in_document_order() {
        var xml = flops("STND", "<FLOP><FLID>1</FLID><STND>501</STND><XTRA>x</XTRA></FLOP>",
                "<FLOP><FLID>2</FLID><STND>502</STND></FLOP>", "<FLOP><FLID>3</FLID><STND>503</STND><XTRA>y</XTRA></FLOP>");

        var batch = (FlightBatch) flight(xml);

        assertThat(batch.flids()).containsExactly("1", "2", "3");
        assertThat(batch.parts()).allSatisfy(part -> assertThat(((FlightOperation) part).subtype()).isEqualTo(FlopSubtype.STND));
        assertThat(((FlightOperation) batch.parts().get(1)).patch().fields()).isEqualTo(fields(FlightField.STND, "502"));
        assertThat(unmapped(xml)).containsExactly("FLOP/XTRA");
        assertThat(decoded(xml).kind()).isEqualTo(new MsgKind.Flop(FlopSubtype.STND));
        assertRoundTrip(decoded(xml));
        assertThat(malformed(flops("STND", "<FLOP><FLID>1</FLID><STND>1</STND><STND>2</STND></FLOP>",
                "<FLOP><FLID>2</FLID></FLOP>"))).isEqualTo("FLOP #1: STND appears twice");
    }

    @Test
    void schd_del_lists_the_flights_to_delete() {
        var xml = "<MSG>" + meta("SCHD", "DEL") + "<SCHD><RECS>2</RECS><FLTR><FLID>1001</FLID><FFID>CA-1</FFID></FLTR>"
                + "<FLTR><FLID>1002</FLID><STND>9</STND></FLTR></SCHD></MSG>";

        assertThat(decoded(xml).kind()).isEqualTo(new MsgKind.Fdel());
        assertThat(flight(xml)).isEqualTo(new FlightBatch(List.of(new FlightDeletion("1001"), new FlightDeletion("1002")), 2));
        assertThat(unmapped(xml)).containsExactly("SCHD/FLTR/STND");
        assertRoundTrip(decoded(xml.replace("<STND>9</STND>", "").replace("<FFID>CA-1</FFID>", "")));
        assertThat(malformed("<MSG>" + meta("SCHD", "DEL") + "<SCHD><RECS>0</RECS></SCHD></MSG>"))
                .isEqualTo("SCHD/DEL lists no FLTR: nothing to delete");
    }

    @Test
    void the_new_fields_are_fields() {
        var patch = recordPatch("<ALSC>HUB</ALSC><LBNO>142</LBNO><LBWT>1893.5</LBWT><PAXC>166</PAXC>"
                + "<CLDT CLNO=\"1\"><BELT>B07</BELT><FBAG>11MAR241130</FBAG><LBAG>11MAR241152</LBAG></CLDT>"
                + "<ROUT RTNO=\"1\"><APCD>HAK</APCD><SADC>0</SADC></ROUT><ERUT RTNO=\"1\"><APCD>URC</APCD><SDDC>1</SDDC></ERUT>");

        assertThat(patch.fields()).containsAllEntriesOf(fields(FlightField.ALSC, "HUB", FlightField.LBNO, "142",
                FlightField.LBWT, "1893.5", FlightField.PAXC, "166"));
        assertThat(patch.lists().get(FlightList.CLDT)).containsExactly(
                item(1, "BELT", "B07", "FBAG", "11MAR241130", "LBAG", "11MAR241152"));
        assertThat(patch.lists().get(FlightList.ROUT)).containsExactly(item(1, "APCD", "HAK", "SADC", "0"));
        assertThat(patch.lists().get(FlightList.ERUT)).containsExactly(item(1, "APCD", "URC", "SDDC", "1"));
        assertThat(((FlightOperation) flight(flops("LBWT", "<FLOP><FLID>1</FLID><LBWT>20.25</LBWT></FLOP>")))
                .patch().fields()).isEqualTo(fields(FlightField.LBWT, "20.25"));
    }

    @Test
    void a_vip_records_services_are_kept_in_document_order_and_written_back_as_elements() {
        var xml = record("<VIPF><VPCD>V301</VPCD><VIPT><VSCD>LNG</VSCD><VTQY>2</VTQY><VTST>11MAR240900</VTST>"
                + "<VTET>11MAR240950</VTET></VIPT><VIPT><VSCD>CAR</VSCD><VTQY>1</VTQY><VXXX>?</VXXX></VIPT></VIPF>");

        var vip = ((ScheduleMessage) flight(xml)).records().get(0).patch().lists().get(FlightList.VIPF).get(0);

        assertThat(vip.get("VPCD")).isEqualTo("V301");
        assertThat(NestedItems.read(vip.get("VIPT"))).containsExactly(
                Map.of("VSCD", "LNG", "VTQY", "2", "VTST", "11MAR240900", "VTET", "11MAR240950"),
                Map.of("VSCD", "CAR", "VTQY", "1"));
        assertThat(unmapped(xml)).containsExactly("FLTR/VIPF/VIPT/VXXX");
        assertThat(CODEC.encode(decoded(xml).meta(), flight(xml))).contains("<VIPF><VPCD>V301</VPCD><VIPT><VSCD>LNG</VSCD>"
                + "<VTQY>2</VTQY><VTST>11MAR240900</VTST><VTET>11MAR240950</VTET></VIPT><VIPT><VSCD>CAR</VSCD><VTQY>1</VTQY>"
                + "</VIPT></VIPF>");
    }

    @Test
    void what_nothing_maps_is_kept_with_the_flight_as_its_extension_document() {
        var patch = recordPatch("<XFUT CODE=\"F1\">未来字段</XFUT><STND ZONE=\"W\">501</STND>"
                + "<XNEST><A>1</A><B K=\"v\"/></XNEST><GTDT GTNO=\"1\" GX=\"g\"><GATE>G1</GATE></GTDT>");

        assertThat(patch.lists().get(FlightList.EXTENSIONS)).containsExactly(
                item(null, "PATH", "XFUT/@CODE", "VALUE", "F1"),
                item(null, "PATH", "XFUT", "VALUE", "未来字段"),
                item(null, "PATH", "STND/@ZONE", "VALUE", "W"),
                item(null, "PATH", "XNEST/A", "VALUE", "1"),
                item(null, "PATH", "XNEST/B/@K", "VALUE", "v"),
                item(null, "PATH", "XNEST/B"),
                item(null, "PATH", "GTDT/@GX", "VALUE", "g"));
        assertThat(recordPatch("<STND>501</STND>").lists()).doesNotContainKey(FlightList.EXTENSIONS);
    }

    @Test
    void a_date_alone_is_the_start_of_that_day_and_a_value_that_is_no_time_is_kept_and_reported() {
        assertThat(SisTime.parse("11MAR24")).contains(LocalDateTime.of(2024, 3, 11, 0, 0));
        assertThat(SisTime.parse("31FEB24")).isEmpty();
        var xml = record("<EOBT>TBA</EOBT><PORT><POTM>soon</POTM><POID>O</POID></PORT><TOBT>11MAR24</TOBT>")
                .replace("<SODT>11MAR240835</SODT>", "<SODT>11mar24</SODT>");

        var read = (DecodeResult.Decoded) CODEC.decode(xml);

        var patch = ((ScheduleMessage) read.message().flightMessage().orElseThrow()).records().get(0).patch();
        assertThat(patch.fields()).containsAllEntriesOf(fields(FlightField.EOBT, "TBA", FlightField.PORT_OPEN, "soon",
                FlightField.TOBT, "11MAR24", FlightField.SODT, "11mar24"));
        assertThat(read.notTimes()).containsExactly("FLTR/EOBT", "FLTR/PORT/POTM");
        assertThat(read.unmapped()).isEmpty();
    }

    @Test
    void the_send_time_may_be_written_out_as_other_senders_of_the_family_do() {
        var xml = record("<STND>1</STND>").replace("<DTTM>20260311223126</DTTM>", "<DTTM>2026-03-11 22:31:26</DTTM>");

        assertThat(decoded(xml).meta().sentAt()).isEqualTo(LocalDateTime.of(2026, 3, 11, 22, 31, 26));
        assertThat(malformed(xml.replace("2026-03-11 22:31:26", "2026-02-30 22:31:26")))
                .isEqualTo("DTTM '2026-02-30 22:31:26' is neither yyyyMMddHHmmss nor yyyy-MM-dd HH:mm:ss");
    }

    @Test
    void a_cleared_door_time_is_cleared_in_its_own_field() {
        assertThat(recordPatch("<PORT><POTM/><POID>C</POID></PORT>").fields()).containsAllEntriesOf(
                Map.of(FlightField.PORT_CLOSE, FieldChange.Cleared.INSTANCE, FlightField.PORT_POTM, FieldChange.Cleared.INSTANCE));
    }
}
