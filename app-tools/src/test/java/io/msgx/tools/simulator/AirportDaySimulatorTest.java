package io.msgx.tools.simulator;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MsgKind;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.msgx.tools.simulator.SimulatedMessage.Kind.ADFT;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.DUPLICATE;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.FDEL;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.FLOP;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.IGNORED;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.MALFORMED;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.REFERENCE;
import static io.msgx.tools.simulator.SimulatedMessage.Kind.SCHEDULE;
import static org.assertj.core.api.Assertions.assertThat;

class AirportDaySimulatorTest {

    private static final LocalDate DAY = LocalDate.of(2024, 3, 11);
    private static final JacksonXmlCodec CODEC = new JacksonXmlCodec();

    private final AirportDaySimulator simulator = new AirportDaySimulator();
    private final AirportDay day = simulator.generate(SimulationSettings.of(42, 200, DAY));

    @Test
    void the_same_seed_gives_the_same_bytes_and_another_seed_another_day() {
        var again = simulator.generate(SimulationSettings.of(42, 200, DAY));
        var other = simulator.generate(SimulationSettings.of(43, 200, DAY));

        assertThat(again.xml()).isEqualTo(day.xml());
        assertThat(again.messages()).isEqualTo(day.messages());
        assertThat(again.expectations()).isEqualTo(day.expectations());
        assertThat(other.xml()).isNotEqualTo(day.xml());
    }

    @Test
    void every_message_decodes_as_its_kind_says_and_only_the_malformed_ones_do_not() {
        for (var message : day.messages()) {
            var result = CODEC.decode(message.xml());
            if (message.kind() == MALFORMED) {
                assertThat(result).as(message.description()).isInstanceOf(DecodeResult.Malformed.class);
                continue;
            }
            assertThat(result).as(message.description()).isInstanceOf(DecodeResult.Decoded.class);
            var decoded = ((DecodeResult.Decoded) result).message();
            assertThat(decoded.meta().sender()).isEqualTo("AODB");
            var expectedKind = switch (message.kind()) {
                case SCHEDULE -> "Schd[scheduleKind=DNLD]";
                case ADFT -> "Schd[scheduleKind=ADFT]";
                case FDEL -> "Fdel[]";
                case IGNORED -> "Unsupported";
                case REFERENCE -> "Ref[";
                default -> null;
            };
            if (expectedKind != null) {
                assertThat(decoded.kind().toString()).as(message.description()).startsWith(expectedKind);
            }
            if (message.kind() == FLOP) {
                assertThat(decoded.kind()).isInstanceOf(MsgKind.Flop.class);
                assertThat(((FlightOperation) decoded.flightMessage().orElseThrow()).flid()).isEqualTo(message.flid());
            }
            if (message.kind() == IGNORED) {
                assertThat(decoded.meta().type()).isIn("LDM", "REGN", "RSTA", "EROR");
            }
            if (message.kind() == REFERENCE) {
                var answer = decoded.referenceAnswer().orElseThrow();
                assertThat(answer.declaredCount()).as(message.description()).isEqualTo(answer.records().size());
                assertThat(((DecodeResult.Decoded) result).unmapped()).as(message.description()).isEmpty();
            }
        }
    }

    @Test
    void packages_declare_their_record_count_and_every_child_names_a_master_of_the_day() {
        var packages = day.messagesOf(SCHEDULE).stream().map(m -> schedule(decode(m.xml()))).toList();
        assertThat(packages).hasSizeGreaterThan(1);
        var records = packages.stream().flatMap(p -> p.records().stream()).toList();
        var operated = new HashSet<String>();
        var masters = new HashMap<String, String>();
        for (var record : records) {
            var patch = record.patch();
            assertThat(record.flid()).isNotBlank();
            for (var field : List.of(FlightField.FFID, FlightField.ALCD, FlightField.FLNO, FlightField.MVIN, FlightField.SODT,
                    FlightField.ACFT, FlightField.RENO, FlightField.TRML, FlightField.STND, FlightField.FLTY, FlightField.FLIN)) {
                assertThat(patch.fields().get(field)).as(record.flid() + " " + field).isInstanceOf(FieldChange.SetTo.class);
            }
            assertThat(value(patch.fields().get(FlightField.SODT))).matches("\\d\\dMAR24\\d{4}");
            assertThat(patch.lists()).containsKeys(io.msgx.domain.flight.FlightList.ROUT, io.msgx.domain.flight.FlightList.ERUT);
            if (patch.carries(FlightField.MAID)) {
                masters.put(record.flid(), value(patch.fields().get(FlightField.MAID)));
                assertThat(patch.carries(FlightField.CSOP) && patch.carries(FlightField.CSFT)).isTrue();
            } else {
                operated.add(record.flid());
            }
        }
        assertThat(packages).allSatisfy(p -> {
            assertThat(p.declaredCount()).isEqualTo(p.records().size());
            assertThat(p.records().size()).isLessThanOrEqualTo(50);
        });
        assertThat(masters).isNotEmpty();
        assertThat(operated).containsAll(masters.values());
        assertThat(new HashSet<>(masters.values()).size()).as("masters of 200 operated flights")
                .isBetween(50, 90);
        assertThat(masters.values().stream().collect(java.util.stream.Collectors.groupingBy(m -> m,
                java.util.stream.Collectors.counting())).values()).allSatisfy(n -> assertThat(n).isBetween(1L, 2L))
                .contains(1L, 2L);
    }

    @Test
    void every_flop_subtype_appears_in_a_day_of_200_flights() {
        var used = EnumSet.noneOf(FlopSubtype.class);
        day.messagesOf(FLOP).forEach(m -> used.add(((MsgKind.Flop) decode(m.xml()).kind()).subtype()));

        assertThat(used).containsExactlyInAnyOrder(FlopSubtype.values());
        assertThat(day.expectations().flopSubtypes()).isEqualTo(used);
    }

    @Test
    void a_flights_operations_go_forward_in_time_and_come_after_its_schedule() {
        var scheduledAt = new HashMap<String, Integer>();
        var lastOperation = new HashMap<String, LocalDateTime>();
        var messages = day.messages();
        for (int i = 0; i < messages.size(); i++) {
            var message = messages.get(i);
            switch (message.kind()) {
                case SCHEDULE, ADFT -> {
                    for (var record : schedule(decode(message.xml())).records()) {
                        scheduledAt.putIfAbsent(record.flid(), i);
                    }
                }
                case FLOP, FDEL -> {
                    assertThat(scheduledAt).as(message.description()).containsKey(message.flid());
                    var sent = decode(message.xml()).meta().sentAt();
                    var before = lastOperation.put(message.flid(), sent);
                    if (before != null) {
                        assertThat(sent).as(message.description()).isAfterOrEqualTo(before);
                    }
                }
                default -> {
                }
            }
        }
        assertThat(scheduledAt.keySet()).isEqualTo(day.expectations().scheduledFlids());
    }

    @Test
    void sequence_numbers_count_up_and_a_duplicate_repeats_an_earlier_message_exactly() {
        var seen = new HashSet<String>();
        long expected = day.settings().firstSequence();
        for (var message : day.messages()) {
            if (message.kind() == DUPLICATE) {
                assertThat(seen).as(message.description()).contains(message.xml());
                continue;
            }
            seen.add(message.xml());
            if (message.kind() != MALFORMED || message.xml().contains("</SEQN>")) {
                assertThat(message.xml()).contains("<SEQN>" + expected + "</SEQN>");
            }
            expected++;
        }
    }

    @Test
    void the_mix_is_realistic_and_the_expectations_add_up() {
        var expectations = day.expectations();
        var operated = 200;
        Map<SimulatedMessage.Kind, Integer> counts = expectations.messagesByKind();
        int flightMessages = counts.get(SCHEDULE) + counts.get(ADFT) + counts.get(FLOP) + counts.get(FDEL);

        assertThat(expectations.flightsScheduled()).isBetween(operated + 50, operated + 140);
        assertThat(counts.get(ADFT)).isEqualTo(6);
        assertThat(counts.get(FDEL)).isEqualTo(4);
        assertThat(counts.get(DUPLICATE)).isEqualTo(Math.round(flightMessages * 0.01f));
        assertThat(counts.get(IGNORED)).isEqualTo(Math.round(flightMessages * 0.01f));
        assertThat(counts.get(MALFORMED)).isEqualTo(Math.round(flightMessages * 0.005f));
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(day.messages().size());
        assertThat(expectations.deletedFlids()).hasSizeGreaterThan(4)
                .containsAll(day.messagesOf(FDEL).stream().map(SimulatedMessage::flid).toList());
        assertThat(expectations.activeFlids()).doesNotContainAnyElementsOf(expectations.deletedFlids());

        var arrivals = day.messagesOf(SCHEDULE).stream().flatMap(m -> schedule(decode(m.xml())).records().stream())
                .filter(r -> !r.patch().carries(FlightField.MAID))
                .filter(r -> value(r.patch().fields().get(FlightField.MVIN)).equals("A")).count();
        assertThat(arrivals).isBetween(80L, 120L);
    }

    @Test
    void the_deletions_take_a_master_with_its_children_and_a_child_alone() {
        var deletedByFdel = day.messagesOf(FDEL).stream().map(SimulatedMessage::flid).toList();
        Set<String> childrenOfDeleted = new HashSet<>(day.expectations().deletedFlids());
        deletedByFdel.forEach(childrenOfDeleted::remove);

        assertThat(childrenOfDeleted).as("children taken along with their master").isNotEmpty();
        assertThat(day.messagesOf(FDEL)).anySatisfy(m -> assertThat(m.description()).contains("code-share children"));
        var childFlids = day.messagesOf(SCHEDULE).stream().flatMap(m -> schedule(decode(m.xml())).records().stream())
                .filter(r -> r.patch().carries(FlightField.MAID)).map(r -> r.flid()).toList();
        assertThat(deletedByFdel).as("a child deleted on its own").containsAnyElementsOf(childFlids);
    }

    static DecodedMessage decode(String xml) {
        var result = CODEC.decode(xml);
        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        return ((DecodeResult.Decoded) result).message();
    }

    private static ScheduleMessage schedule(DecodedMessage message) {
        return (ScheduleMessage) message.flightMessage().orElseThrow();
    }

    private static String value(FieldChange change) {
        return ((FieldChange.SetTo) change).value();
    }
}
