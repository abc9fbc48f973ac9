package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightBatch;
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
import net.jqwik.api.Tuple;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of the engine over random message sequences: a small pool of FLIDs, a few operation days and
 * code-share links drawn from the same pool, so conflicts, cascades and MAFL moves happen often.
 */
class FlightStateEngineProperties {

    private static final List<String> FLIDS = List.of("1", "2", "3", "4", "5", "6");
    private static final List<String> SODTS = List.of("11MAR240835", "11MAR242310", "12MAR240600", "12MAR241900");
    private static final List<FlightField> RECORD_FIELDS =
            List.of(FlightField.FLNO, FlightField.STND, FlightField.RUNW, FlightField.MAID, FlightField.CSOP,
                    FlightField.EXSC, FlightField.FDIV, FlightField.FDIV_DDES, FlightField.PORT_POTM, FlightField.VIPP);
    private static final List<FlopSubtype> FLOPS =
            List.of(FlopSubtype.STND, FlopSubtype.GTDT, FlopSubtype.CSHR, FlopSubtype.HNAG, FlopSubtype.EOBT,
                    FlopSubtype.EXSS, FlopSubtype.FDIV, FlopSubtype.PORT, FlopSubtype.VIPR);

    @Property(tries = 300)
    void every_change_advances_the_version_by_exactly_one_and_nothing_else_moves(@ForAll("sequences") List<FlightMessage> messages) {
        var store = new InMemoryFlights();
        for (var message : messages) {
            var before = index(store.all());
            var decision = store.accept(message);
            var after = index(store.all());
            if (decision instanceof Decision.Applied applied) {
                for (var change : applied.changes()) {
                    var prior = before.get(change.after().flid());
                    assertThat(change.after().stateVersion()).isEqualTo(prior == null ? 1 : prior.stateVersion() + 1);
                    assertThat(change.event().stateVersion()).isEqualTo(change.after().stateVersion());
                    assertThat(change.event().changed()).isNotEmpty();
                }
                var changed = applied.changes().stream().map(c -> c.after().flid()).toList();
                before.forEach((flid, state) -> {
                    if (!changed.contains(flid)) {
                        assertThat(after.get(flid)).isEqualTo(state);
                    }
                });
            } else {
                assertThat(after).isEqualTo(before);
            }
        }
    }

    /** A step of a flight's life beside its messages: the history cleanup takes the flight out of the current state. */
    private record Archive(String flid) {
    }

    @Property(tries = 300)
    void a_flids_version_never_goes_back_even_across_its_archive(@ForAll("lives") List<Object> steps) {
        var store = new InMemoryFlights();
        var lastSeen = new HashMap<FlightId, Long>();
        for (var step : steps) {
            if (step instanceof Archive archive) {
                store.archive(archive.flid());
                continue;
            }
            if (store.accept((FlightMessage) step) instanceof Decision.Applied applied) {
                for (var change : applied.changes()) {
                    var flid = change.after().flid();
                    var previous = lastSeen.get(flid);
                    assertThat(change.after().stateVersion()).as("FLID %s after version %s", flid, previous)
                            .isEqualTo(previous == null ? 1 : previous + 1);
                    lastSeen.put(flid, change.after().stateVersion());
                }
            }
        }
    }

    @Provide
    Arbitrary<List<Object>> lives() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, schedules().map(Object.class::cast)),
                Tuple.of(1, adfts().map(Object.class::cast)),
                Tuple.of(3, operations().map(Object.class::cast)),
                Tuple.of(1, deletions().map(Object.class::cast)),
                Tuple.of(2, flids().map(Archive::new).map(Object.class::cast)))
                .list().ofMinSize(1).ofMaxSize(30);
    }

    @Property(tries = 300)
    void an_operation_day_once_set_never_changes(@ForAll("sequences") List<FlightMessage> messages) {
        var store = new InMemoryFlights();
        var firstDay = new HashMap<FlightId, OperationDay>();
        for (var message : messages) {
            store.accept(message);
            for (var state : store.all()) {
                if (state.operationDay() != null) {
                    var first = firstDay.putIfAbsent(state.flid(), state.operationDay());
                    assertThat(state.operationDay()).isEqualTo(first == null ? state.operationDay() : first);
                } else {
                    assertThat(firstDay).doesNotContainKey(state.flid());
                }
            }
        }
    }

    @Property(tries = 300)
    void a_field_the_message_does_not_carry_is_never_cleared(@ForAll("sequences") List<FlightMessage> messages) {
        var store = new InMemoryFlights();
        for (var message : messages) {
            var before = index(store.all());
            store.accept(message);
            for (var state : store.all()) {
                var prior = before.get(state.flid());
                if (prior == null) {
                    continue;
                }
                for (var field : FlightField.values()) {
                    if (prior.fields().valueOf(field) != null && !carries(message, state.flid(), field)) {
                        assertThat(state.fields().valueOf(field)).as(field + " of " + state.flid())
                                .isEqualTo(prior.fields().valueOf(field));
                    }
                }
            }
        }
    }

    @Property(tries = 300)
    void mafl_equals_a_brute_force_recomputation_and_every_moved_mafl_is_versioned(
            @ForAll("sequences") List<FlightMessage> messages) {
        var store = new InMemoryFlights();
        for (var message : messages) {
            var before = store.all();
            var decision = store.accept(message);
            var after = store.all();
            var changed = decision instanceof Decision.Applied a
                    ? a.changes().stream().map(c -> c.after().flid()).toList() : List.<FlightId>of();
            if (decision instanceof Decision.Applied applied) {
                for (var change : applied.changes()) {
                    if (change.mafl() != null) {
                        assertThat(change.mafl()).isEqualTo(MaflProjection.of(change.after().flid(), after));
                    } else {
                        assertThat(change.after().isActive() && change.after().carriesMafl()).isFalse();
                    }
                }
            }
            for (var master : after) {
                var beforeMaster = before.stream().filter(f -> f.flid().equals(master.flid())).findFirst();
                if (master.isActive() && master.carriesMafl() && beforeMaster.isPresent()
                        && beforeMaster.get().isActive() && beforeMaster.get().carriesMafl()
                        && !MaflProjection.of(master.flid(), before).equals(MaflProjection.of(master.flid(), after))) {
                    assertThat(changed).as("master " + master.flid() + " whose MAFL moved").contains(master.flid());
                }
            }
        }
    }

    @Property(tries = 300)
    void the_engine_is_deterministic_and_the_batched_read_plan_sees_what_a_full_read_sees(
            @ForAll("sequences") List<FlightMessage> messages) {
        var store = new InMemoryFlights();
        for (var message : messages) {
            var complete = FlightSnapshot.complete(store.all());
            var msgId = store.peekNextMsgId();
            var once = store.engine().apply(complete, message, msgId);
            var twice = store.engine().apply(FlightSnapshot.complete(store.all()), message, msgId);
            var planned = store.engine().apply(store.readThroughPlan(message), message, msgId);
            assertThat(twice).isEqualTo(once);
            assertThat(planned).isEqualTo(once);
            store.accept(message);
        }
    }

    private static boolean carries(FlightMessage message, FlightId flid, FlightField field) {
        if (message instanceof ScheduleMessage s) {
            return s.records().stream().anyMatch(r -> flid.value().equals(r.flid()) && r.patch().carries(field));
        }
        if (message instanceof FlightOperation op) {
            return flid.value().equals(op.flid()) && op.patch().carries(field);
        }
        if (message instanceof FlightBatch batch) {
            return batch.parts().stream().anyMatch(part -> carries(part, flid, field));
        }
        return false;
    }

    private static Map<FlightId, FlightState> index(List<FlightState> states) {
        var map = new HashMap<FlightId, FlightState>();
        states.forEach(s -> map.put(s.flid(), s));
        return map;
    }

    @Provide
    Arbitrary<List<FlightMessage>> sequences() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, schedules()),
                Tuple.of(1, adfts()),
                Tuple.of(4, operations()),
                Tuple.of(1, deletions()),
                Tuple.of(2, batches()))
                .list().ofMinSize(1).ofMaxSize(25);
    }

    /** Several FLOP bodies of one subtype (sis-format v3 §10), or a SCHD/DEL list of deletions. */
    private Arbitrary<FlightMessage> batches() {
        Arbitrary<FlightMessage> bodies = Arbitraries.of(FLOPS).flatMap(subtype -> operations()
                .map(op -> (FlightOperation) op)
                .map(op -> new FlightOperation(subtype, op.flid(), op.patch()))
                .filter(op -> subtype.list().map(op.patch()::carries).orElse(subtype.fields().stream().anyMatch(op.patch()::carries)))
                .list().ofMinSize(2).ofMaxSize(4)
                .map(ops -> (FlightMessage) new FlightBatch(List.copyOf(ops))));
        Arbitrary<FlightMessage> deletions = deletions().list().ofMinSize(1).ofMaxSize(3)
                .map(parts -> (FlightMessage) new FlightBatch(parts, parts.size()));
        return Arbitraries.oneOf(bodies, deletions);
    }

    @Property(tries = 300)
    void a_batch_ends_where_its_parts_one_after_the_other_end_with_one_version_per_flight(
            @ForAll("setUps") List<FlightMessage> setUp, @ForAll("batchesOnly") FlightMessage message) {
        var together = new InMemoryFlights();
        var oneByOne = new InMemoryFlights();
        setUp.forEach(together::accept);
        setUp.forEach(oneByOne::accept);
        var before = index(together.all());

        var decision = together.accept(message);
        var parts = ((FlightBatch) message).parts();
        var rejected = parts.stream().map(oneByOne::accept).anyMatch(Decision.Rejected.class::isInstance);

        if (rejected) {
            assertThat(decision).isInstanceOf(Decision.Rejected.class);
            assertThat(index(together.all())).isEqualTo(before);
            return;
        }
        var separately = index(oneByOne.all());
        index(together.all()).forEach((flid, state) -> assertThat(state.sameContentAs(separately.get(flid)))
                .as("FLID %s: %s against %s", flid, state, separately.get(flid)).isTrue());
        if (decision instanceof Decision.Applied applied) {
            applied.changes().forEach(change -> {
                var prior = before.get(change.after().flid());
                assertThat(change.after().stateVersion()).isEqualTo(prior == null ? 1 : prior.stateVersion() + 1);
            });
        }
    }

    @Provide
    Arbitrary<List<FlightMessage>> setUps() {
        return schedules().list().ofMinSize(1).ofMaxSize(4);
    }

    @Provide
    Arbitrary<FlightMessage> batchesOnly() {
        return batches();
    }

    private Arbitrary<FlightMessage> schedules() {
        return records(true).list().ofMinSize(1).ofMaxSize(4)
                .map(records -> new ScheduleMessage(ScheduleKind.DNLD, records.size(), records));
    }

    private Arbitrary<FlightMessage> adfts() {
        return records(false).map(record -> new ScheduleMessage(ScheduleKind.ADFT, 1, List.of(record)));
    }

    private Arbitrary<FlightRecord> records(boolean withSodt) {
        var sodt = withSodt ? Arbitraries.of(SODTS).map(FieldChange::of)
                : Arbitraries.oneOf(Arbitraries.of(SODTS).map(FieldChange::of), Arbitraries.just((FieldChange) null));
        return Combinators.combine(flids(), sodt, fieldChanges(), gates())
                .as((flid, sodtChange, fields, gates) -> {
                    var patch = new FlightPatch(fields, gates == null ? Map.of() : Map.of(FlightList.GTDT, gates));
                    return new FlightRecord(flid, sodtChange == null ? patch : patch.with(FlightField.SODT, sodtChange));
                });
    }

    private Arbitrary<FlightMessage> operations() {
        return Combinators.combine(Arbitraries.of(FLOPS), flids(), fieldChanges(), gates())
                .as((subtype, flid, fields, gates) -> {
                    var patch = new FlightPatch(fields, gates == null ? Map.of() : Map.of(FlightList.GTDT, gates));
                    for (var field : subtype.fields()) {
                        if (!patch.carries(field)) {
                            patch = patch.with(field, FieldChange.of("v-" + field));
                        }
                    }
                    if (subtype == FlopSubtype.GTDT && !patch.carries(FlightList.GTDT)) {
                        patch = patch.with(FlightList.GTDT, List.of());
                    }
                    return (FlightMessage) new FlightOperation(subtype, flid, patch);
                });
    }

    private Arbitrary<FlightMessage> deletions() {
        return flids().map(FlightDeletion::new);
    }

    private Arbitrary<String> flids() {
        return Arbitraries.of(FLIDS);
    }

    private Arbitrary<Map<FlightField, FieldChange>> fieldChanges() {
        var value = Arbitraries.oneOf(
                Arbitraries.of(FLIDS),                        // also a plausible MAID
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(3),
                Arbitraries.just(""));                         // explicit clear
        return Arbitraries.maps(Arbitraries.of(RECORD_FIELDS), value.map(FieldChange::of)).ofMaxSize(3);
    }

    private Arbitrary<List<ListItem>> gates() {
        var item = Combinators.combine(Arbitraries.integers().between(1, 3).injectNull(0.3), Arbitraries.of("G1", "G2", "G3"))
                .as((seq, gate) -> ListItem.of(seq, Map.of("GATE", gate)));
        return item.list().ofMaxSize(3).injectNull(0.6);
    }
}
