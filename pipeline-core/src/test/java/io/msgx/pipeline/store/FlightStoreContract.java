package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.record.FlightStamp;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.IntStream;

import static io.msgx.pipeline.store.FlightSamples.awkwardItems;
import static io.msgx.pipeline.store.FlightSamples.child;
import static io.msgx.pipeline.store.FlightSamples.everything;
import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.item;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link FlightStore} must do: give back exactly the full state it was given (every field, every list
 * in order, sequences as they came), rewrite lists whole on update, and find flights and code-share children.
 */
public abstract class FlightStoreContract extends StoreContract {

    protected void save(FlightState... states) {
        saveAll(List.of(states));
    }

    protected void saveAll(Collection<FlightState> states) {
        store().inTransaction(tx -> {
            tx.flights().save(states, clock.instant());
            return null;
        });
    }

    protected List<FlightState> find(Collection<FlightId> flids) {
        return store().inTransaction(tx -> tx.flights().find(flids));
    }

    protected List<FlightState> childrenOf(Collection<FlightId> masters) {
        return store().inTransaction(tx -> tx.flights().findChildrenOf(masters));
    }

    protected FlightState found(String flid) {
        var found = find(ids(flid));
        assertThat(found).as("flights found for FLID " + flid).hasSize(1);
        return found.get(0);
    }

    @Test
    void everyFieldAndEveryListComeBackExactlyAsSaved() {
        var flight = everything("1001", "900");

        save(flight);

        assertThat(found("1001")).isEqualTo(flight);
    }

    @Test
    void theFieldsAndListsOfContractVersion2ComeBackExactlyAsSaved() {
        var flight = FlightSamples.contractV2("1001");

        save(flight);

        assertThat(found("1001")).isEqualTo(flight);
        for (var field : List.of(FlightField.EXSC, FlightField.EXSR, FlightField.FDIV_DDES, FlightField.FDIV_DDIR,
                FlightField.FRET_REID, FlightField.FLAB_ARES, FlightField.PORT_POTM, FlightField.PORT_POID,
                FlightField.VIPP, FlightField.VIPR)) {
            assertThat(found("1001").fields().valueOf(field)).as(field.code()).isNotNull();
        }
        for (var list : List.of(FlightList.PSHT, FlightList.TIPT, FlightList.CHDT, FlightList.SRVT, FlightList.VIPF,
                FlightList.DELY)) {
            assertThat(found("1001").lists().get(list)).as(list.code()).isEqualTo(flight.lists().get(list));
        }
    }

    /** Saving with what the store holds ({@code stored}) gives back the same as a plain save, list by list. */
    @Test
    void aSaveThatKnowsTheStoredStatesLeavesNothingStaleAndLosesNothing() {
        var master = everything("900", "900");
        var a = everything("1001", "900");
        var b = everything("1002", "900");
        saveAll(List.of(master, a, b));
        var stored = java.util.Map.of(a.flid(), a, b.flid(), b);

        var gates = a.lists().get(FlightList.GTDT);
        var aGatesChanged = a.withLists(a.lists().with(FlightList.GTDT, List.of(gates.get(gates.size() - 1))));
        var bListsCleared = b.withLists(b.lists().with(FlightList.GTDT, List.of()).with(FlightList.ROUT, List.of()))
                .withFields(b.fields().with(FlightField.STND, "77"));
        var fresh = everything("1003", "900");
        store().inTransaction(tx -> {
            tx.flights().save(List.of(aGatesChanged, bListsCleared, fresh), stored, clock.instant());
            return null;
        });

        assertThat(found("1001")).isEqualTo(aGatesChanged);
        assertThat(found("1002")).isEqualTo(bListsCleared);
        assertThat(found("1003")).isEqualTo(fresh);
        assertThat(found("900")).as("flights not saved are untouched").isEqualTo(master);
    }

    @Test
    void routeAndAlternateRouteStayApartThoughTheirSequencesAreEqual() {
        var flight = everything("1001", null);

        save(flight);

        var lists = found("1001").lists();
        assertThat(lists.get(FlightList.ROUT)).isEqualTo(awkwardItems(FlightList.ROUT));
        assertThat(lists.get(FlightList.ERUT)).isEqualTo(awkwardItems(FlightList.ERUT));
        assertThat(lists.get(FlightList.ROUT)).isNotEqualTo(lists.get(FlightList.ERUT));
    }

    @Test
    void theSameResourceTwiceIsTwoItemsWithTheirOwnSequences() {
        var gates = List.of(
                item(1, "GATE", "A12", "GTYP", "BOARDING"),
                item(1, "GATE", "A12", "GTYP", "DEBOARDING"),
                item(null, "GATE", "A12"));
        var flight = plain("1001").withLists(plain("1001").lists().with(FlightList.GTDT, gates));

        save(flight);

        assertThat(found("1001").lists().get(FlightList.GTDT)).containsExactlyElementsOf(gates);
    }

    @Test
    void aFlightWithoutOperationDayOrListsAndDeletedComesBackAsSaved() {
        var flight = plain("1001").withOperationDay(null).withStatus(FlightStatus.DELETED);

        save(flight);

        assertThat(found("1001")).isEqualTo(flight);
    }

    @Test
    void aValueOfTheFullColumnWidthIsKept() {
        var remark = "R".repeat(FlightField.MAX_VALUE_LENGTH);
        var flight = plain("1001").withFields(plain("1001").fields().with(FlightField.REMC, remark));

        save(flight);

        assertThat(found("1001").fields().valueOf(FlightField.REMC)).isEqualTo(remark);
    }

    @Test
    void savingAgainReplacesTheWholeStateAndRewritesEveryList() {
        var first = everything("1001", "900");
        save(first);
        var second = new FlightState(first.flid(), FlightStatus.ACTIVE, 4, first.operationDay(), 1004,
                first.fields().with(FlightField.REMC, null).with(FlightField.STND, "212"),
                first.lists()
                        .with(FlightList.GTDT, List.of(item(7, "GATE", "B3")))
                        .with(FlightList.CKDT, List.of())
                        .with(FlightList.ERUT, List.of()));
        clock.tick(java.time.Duration.ofMinutes(1));

        save(second);

        var found = found("1001");
        assertThat(found).isEqualTo(second);
        assertThat(found.lists().get(FlightList.GTDT)).containsExactly(item(7, "GATE", "B3"));
        assertThat(found.lists().get(FlightList.CKDT)).isEmpty();
        assertThat(found.lists().get(FlightList.ERUT)).isEmpty();
        assertThat(found.lists().get(FlightList.ROUT)).isEqualTo(awkwardItems(FlightList.ROUT));
        assertThat(found.fields().get(FlightField.REMC)).isEmpty();
    }

    @Test
    void aReorderedListComesBackInItsNewOrder() {
        var base = plain("1001");
        save(base.withLists(base.lists().with(FlightList.DELY,
                List.of(item(1, "CODE", "93"), item(2, "CODE", "81")))));
        var reordered = base.withLists(base.lists().with(FlightList.DELY,
                List.of(item(2, "CODE", "81"), item(1, "CODE", "93"))));

        save(reordered);

        assertThat(found("1001").lists().get(FlightList.DELY))
                .containsExactly(item(2, "CODE", "81"), item(1, "CODE", "93"));
    }

    @Test
    void findReturnsTheFlightsThatExistAndOnlyThose() {
        save(plain("1001"), plain("1002"));

        assertThat(find(ids("1001", "1003"))).containsExactly(plain("1001"));
        assertThat(find(ids("1003"))).isEmpty();
        assertThat(find(List.of())).isEmpty();
    }

    @Test
    void manyFlightsComeBackEachWithItsOwnLists() {
        var flights = new ArrayList<FlightState>();
        for (int n = 1; n <= 60; n++) {
            var flight = n % 3 == 0 ? everything(String.valueOf(2000 + n), null) : plain(String.valueOf(2000 + n));
            flights.add(flight.withLists(flight.lists().with(FlightList.GTDT,
                    List.of(item(n, "GATE", "G" + n), item(null, "GATE", "H" + n)))));
        }
        saveAll(flights);

        var found = find(flights.stream().map(FlightState::flid).toList());

        assertThat(found).containsExactlyInAnyOrderElementsOf(flights);
    }

    @Test
    void oneSaveWritesNewAndExistingFlightsTogether() {
        save(plain("1001"));
        var updated = plain("1001").withFields(plain("1001").fields().with(FlightField.STND, "101"));
        var added = everything("1002", null);

        save(updated, added);

        assertThat(find(ids("1001", "1002"))).containsExactlyInAnyOrder(updated, added);
    }

    @Test
    void theChildrenOfAMasterAreEveryFlightNamingItWhateverTheirStatus() {
        var master = plain("900");
        var child = everything("1001", "900");
        var plainChild = child("1002", "900");
        var deletedChild = child("1003", "900").withStatus(FlightStatus.DELETED);
        var childOfAnother = child("1004", "901");
        var unrelated = plain("1005");
        save(master, child, plainChild, deletedChild, childOfAnother, unrelated);

        assertThat(childrenOf(ids("900"))).containsExactlyInAnyOrder(child, plainChild, deletedChild);
        assertThat(childrenOf(ids("900", "901")))
                .containsExactlyInAnyOrder(child, plainChild, deletedChild, childOfAnother);
    }

    @Test
    void aFlightWithoutChildrenHasNone() {
        save(plain("900"), child("1001", "900"));

        assertThat(childrenOf(ids("1001"))).isEmpty();
        assertThat(childrenOf(ids("999"))).isEmpty();
        assertThat(childrenOf(List.of())).isEmpty();
    }

    @Test
    void savingNothingChangesNothing() {
        save(plain("1001"));

        saveAll(List.of());

        assertThat(find(ids("1001"))).containsExactly(plain("1001"));
    }

    @Test
    void flightsAreFoundInsideTheTransactionThatWroteThem() {
        var flights = IntStream.rangeClosed(1, 3).mapToObj(n -> plain("10" + n)).toList();

        var seen = store().inTransaction(tx -> {
            tx.flights().save(flights, clock.instant());
            return tx.flights().find(ids("101", "102", "103"));
        });

        assertThat(seen).containsExactlyInAnyOrderElementsOf(flights);
    }
    @Test
    void stampsNameTheStoredVersionAndWriterOfTheFlightsAndOfTheChildrenAsked() {
        var master = plain("900");
        var child = everything("1001", "900");
        var deletedChild = child("1003", "900").withStatus(FlightStatus.DELETED);
        var childOfAnother = child("1004", "901");
        save(master, child, deletedChild, childOfAnother, plain("1005"));

        var stamps = store().inTransaction(tx -> tx.flights().stampsOf(ids("900", "1005", "404"), ids("900")));

        assertThat(stamps).containsExactlyInAnyOrder(FlightStamp.of(master), FlightStamp.of(plain("1005")),
                FlightStamp.of(child), FlightStamp.of(deletedChild));
        assertThat(FlightStamp.of(child)).isEqualTo(new FlightStamp(child.flid(), 3, 1003));
    }

    @Test
    void aFlightBothAskedForAndAChildIsStampedOnce() {
        save(plain("900"), child("1001", "900"));

        var stamps = store().inTransaction(tx -> tx.flights().stampsOf(ids("1001", "900"), ids("900")));

        assertThat(stamps).containsExactlyInAnyOrder(FlightStamp.of(plain("900")),
                FlightStamp.of(child("1001", "900")));
        List<FlightStamp> none = store().inTransaction(tx -> tx.flights().stampsOf(List.of(), List.of()));
        assertThat(none).isEmpty();
    }

    @Test
    void aStampFollowsEveryWrite() {
        var first = plain("1001");
        save(first);
        var second = first.withFields(first.fields().with(FlightField.FLNO, "MU1001")).withVersionAfter(first, 1007);
        save(second);

        var stamps = store().inTransaction(tx -> tx.flights().stampsOf(ids("1001"), List.of()));

        assertThat(stamps).containsExactly(new FlightStamp(FlightId.of("1001"), 2, 1007));
        assertThat(stamps.get(0).matches(second)).isTrue();
        assertThat(stamps.get(0).matches(first)).isFalse();
    }
}
