package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.LocalDateTime;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Any flight message the codec encodes comes back equal from decoding. */
class FlightMessageRoundTripProperties {

    private final XmlCodec codec = new JacksonXmlCodec();

    @Property(tries = 300)
    void flightMessagesSurviveEncodeAndDecode(@ForAll("flightMessages") FlightMessage message, @ForAll("sentAt") LocalDateTime sentAt) {
        MsgKind kind = MsgKind.of(message);
        String type = kind instanceof MsgKind.Schd ? "SCHD" : "FLOP";
        String subtype = kind instanceof MsgKind.Schd schd ? schd.scheduleKind().name()
                : kind instanceof MsgKind.Flop flop ? flop.subtype().name() : "FDEL";
        var meta = new MessageMeta("AODB", "RMS", type, subtype, "42", sentAt, "7");

        DecodeResult result = codec.decode(codec.encode(meta, message));

        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        var decoded = (DecodeResult.Decoded) result;
        assertThat(decoded.message()).isEqualTo(DecodedMessage.ofFlight(meta, message));
        assertThat(decoded.unmapped()).isEmpty();
    }

    @Provide
    Arbitrary<LocalDateTime> sentAt() {
        return Arbitraries.longs().between(0, 100L * 365 * 24 * 3600)
                .map(seconds -> LocalDateTime.of(2000, 1, 1, 0, 0).plusSeconds(seconds));
    }

    @Provide
    Arbitrary<FlightMessage> flightMessages() {
        Arbitrary<FlightMessage> schedules = Combinators.combine(
                        Arbitraries.of(ScheduleKind.class),
                        Arbitraries.integers().between(-1, 9).injectNull(0.3),
                        records().list().ofMaxSize(3))
                .as(ScheduleMessage::new);
        Arbitrary<FlightMessage> operations = Combinators.combine(Arbitraries.of(FlopSubtype.class), flids(), patches())
                .as(FlightOperation::new);
        Arbitrary<FlightMessage> deletions = flids().map(FlightDeletion::new);
        return Arbitraries.oneOf(schedules, operations, deletions);
    }

    private Arbitrary<FlightRecord> records() {
        return Combinators.combine(flids(), patches()).as(FlightRecord::new);
    }

    private Arbitrary<String> flids() {
        return Arbitraries.oneOf(
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(10),
                values(),
                Arbitraries.just(""))
                .injectNull(0.1);
    }

    private Arbitrary<FlightPatch> patches() {
        Arbitrary<Map<FlightField, FieldChange>> fields = Arbitraries.maps(Arbitraries.of(FlightField.class), changes())
                .ofMaxSize(12);
        Arbitrary<Map<FlightList, List<ListItem>>> lists = Arbitraries.of(java.util.Arrays.stream(FlightList.values())
                        .filter(FlightList::inMessages).toList())
                .flatMap(list -> items(list).list().ofMaxSize(3).map(items -> Map.entry(list, items)))
                .list().ofMaxSize(4)
                .map(entries -> {
                    Map<FlightList, List<ListItem>> map = new EnumMap<>(FlightList.class);
                    entries.forEach(entry -> map.put(entry.getKey(), entry.getValue()));
                    return map;
                });
        return Combinators.combine(fields, lists).as((f, l) -> new FlightPatch(representable(f), l));
    }

    /**
     * The field changes with what an element's fields cannot say on their own made whole (see the writer): a part
     * ({@code FDIV_DDES}) needs its element's own field, and a clear of the element's own field alone is a clear of
     * every field the element carries ({@code <FDIV/>}).
     */
    private static Map<FlightField, FieldChange> representable(Map<FlightField, FieldChange> generated) {
        Map<FlightField, FieldChange> fields = new EnumMap<>(FlightField.class);
        fields.putAll(generated);
        for (FlightField field : generated.keySet()) {
            List<FlightField> carried = FlightField.carriedBy(field.element());
            FlightField own = carried.stream().filter(f -> f.carrier() == FlightField.Carrier.ELEMENT).findFirst().orElse(null);
            if (own == null || carried.size() == 1) {
                continue;
            }
            fields.putIfAbsent(own, new FieldChange.SetTo("reason of " + own));
            if (fields.get(own) == FieldChange.Cleared.INSTANCE
                    && carried.stream().noneMatch(f -> f != own && fields.containsKey(f))) {
                carried.forEach(f -> fields.put(f, FieldChange.Cleared.INSTANCE));
            }
        }
        doorTimesConsistent(fields);
        return fields;
    }

    /**
     * The door's fields as one or two {@code <PORT>}s say them: the pair {@code PORT_POTM}/{@code PORT_POID} is the last
     * PORT written (close after open), and a pair whose {@code POID} is {@code O} or {@code C} also sets that time.
     */
    private static void doorTimesConsistent(Map<FlightField, FieldChange> fields) {
        boolean open = fields.containsKey(FlightField.PORT_OPEN);
        boolean close = fields.containsKey(FlightField.PORT_CLOSE);
        boolean cleared = fields.keySet().containsAll(FlightField.carriedBy("PORT"))
                && FlightField.carriedBy("PORT").stream().allMatch(f -> fields.get(f) == FieldChange.Cleared.INSTANCE);
        if (cleared) {
            return;
        }
        if (open || close) {
            var last = close ? FlightField.PORT_CLOSE : FlightField.PORT_OPEN;
            fields.put(FlightField.PORT_POTM, fields.get(last));
            fields.put(FlightField.PORT_POID, new FieldChange.SetTo(close ? "C" : "O"));
            return;
        }
        if (fields.get(FlightField.PORT_POID) instanceof FieldChange.SetTo poid && fields.containsKey(FlightField.PORT_POTM)) {
            switch (poid.value().toUpperCase(java.util.Locale.ROOT)) {
                case "O" -> fields.put(FlightField.PORT_OPEN, fields.get(FlightField.PORT_POTM));
                case "C" -> fields.put(FlightField.PORT_CLOSE, fields.get(FlightField.PORT_POTM));
                default -> {
                }
            }
        }
    }

    private Arbitrary<FieldChange> changes() {
        Arbitrary<FieldChange> set = Arbitraries.oneOf(values(), exceptionPairs()).map(FieldChange.SetTo::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, set),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(FieldChange.Cleared.INSTANCE)));
    }

    private Arbitrary<ListItem> items(FlightList list) {
        Arbitrary<Map<String, String>> values = Arbitraries.subsetOf(list.itemFields())
                .flatMap(codes -> values().list().ofSize(codes.size()).map(texts -> zip(codes, texts)))
                .flatMap(item -> nested(list, item));
        return Combinators.combine(Arbitraries.integers().injectNull(0.3), values).as(ListItem::new);
    }

    /** {@code item} with each nested-items field ({@code VIPT} of {@code VIPF}) holding one to three sub-items. */
    private static Arbitrary<Map<String, String>> nested(FlightList list, Map<String, String> item) {
        var nestedCodes = list.nestedItems().keySet().stream().filter(item::containsKey).toList();
        if (nestedCodes.isEmpty()) {
            return Arbitraries.just(item);
        }
        String code = nestedCodes.get(0);
        List<String> subFields = list.nestedItems().get(code);
        Arbitrary<Map<String, String>> subItem = Arbitraries.subsetOf(subFields).ofMinSize(1)
                .flatMap(codes -> Arbitraries.oneOf(values(), Arbitraries.just("")).list().ofSize(codes.size())
                        .map(texts -> zip(codes, texts)));
        return subItem.list().ofMinSize(1).ofMaxSize(3).map(subItems -> {
            Map<String, String> copy = new LinkedHashMap<>(item);
            copy.put(code, io.msgx.pipeline.codec.NestedItems.write(subItems));
            return copy;
        });
    }

    private static Map<String, String> zip(Set<String> codes, List<String> texts) {
        Map<String, String> map = new LinkedHashMap<>();
        int i = 0;
        for (String code : codes) {
            map.put(code, texts.get(i++));
        }
        return map;
    }

    /** Trimmed, non-empty texts with XML's special characters, CJK and inner whitespace. */
    private static Arbitrary<String> values() {
        Arbitrary<Character> edge = Arbitraries.chars().alpha().numeric().with('<', '>', '&', '"', '\'', ';', '=', '中', '航');
        Arbitrary<String> middle = Arbitraries.strings()
                .withCharRange('a', 'z').withCharRange('0', '9').withChars(" \t\n\r<>&\"';=]/中国航班")
                .ofMaxLength(30);
        return Combinators.combine(edge, middle, edge)
                .as((first, inner, last) -> first + inner + last)
                .injectDuplicates(0.1);
    }

    /** Structured exception values, e.g. {@code DVAP=CTU;DVTM=11MAR241030;DVRM=}. */
    private static Arbitrary<String> exceptionPairs() {
        Arbitrary<String> pair = Combinators.combine(
                        Arbitraries.of("DVAP", "DVTM", "DVRM", "RTRM", "X1"),
                        Arbitraries.oneOf(values(), Arbitraries.just("")))
                .as((code, value) -> code + "=" + value);
        return pair.list().ofMinSize(1).ofMaxSize(3).map(pairs -> String.join(";", pairs));
    }
}
