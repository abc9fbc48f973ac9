package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.record.FlightStamp;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static io.msgx.pipeline.store.FlightSamples.child;
import static io.msgx.pipeline.store.FlightSamples.ids;
import static io.msgx.pipeline.store.FlightSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flight cache (D-39) saves reads and never decides on a state the store no longer holds: a remembered state is
 * used only while its stamp is the stored one.
 */
class FlightCacheTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final H2TestStore store = H2TestStore.fresh();

    @Test
    void aRememberedFlightWhoseStampIsStoredIsReadFromTheCacheAndNotWhole() {
        save(plain("1001"), child("1002", "1001"));
        var cache = FlightCache.holding(10);
        cache.remember(List.of(plain("1001"), child("1002", "1001")));

        var reads = inTransaction(cache, buffer -> {
            assertThat(buffer.find(ids("1001"))).containsExactly(plain("1001"));
            assertThat(buffer.findChildrenOf(ids("1001"))).containsExactly(child("1002", "1001"));
        });

        assertThat(reads.whole()).isEmpty();
        assertThat(reads.stamps()).isEqualTo(2);
        assertThat(cache.hits()).isEqualTo(2);
    }

    @Test
    void aFlightWrittenBehindTheCachesBackIsReadWholeAndRememberedAnew() {
        var remembered = plain("1001");
        save(remembered);
        var cache = FlightCache.holding(10);
        cache.remember(List.of(remembered));
        var elsewhere = remembered.withFields(remembered.fields().with(FlightField.FLNO, "MU1001"))
                .withVersionAfter(remembered, 2002);
        save(elsewhere); // another instance, an operator, a restored database: not through this cache

        var reads = inTransaction(cache, buffer -> assertThat(buffer.find(ids("1001"))).containsExactly(elsewhere));

        assertThat(reads.whole()).containsExactly(ids("1001"));
        var again = inTransaction(cache, buffer -> assertThat(buffer.find(ids("1001"))).containsExactly(elsewhere));
        assertThat(again.whole()).isEmpty();
    }

    @Test
    void aRememberedFlightThatIsNoLongerStoredIsAbsent() {
        var cache = FlightCache.holding(10);
        cache.remember(List.of(plain("1001"))); // deleted since, e.g. by the lifecycle cleanup

        var reads = inTransaction(cache, buffer -> {
            assertThat(buffer.find(ids("1001"))).isEmpty();
            assertThat(buffer.find(ids("1001"))).as("absent is remembered for the transaction").isEmpty();
        });

        assertThat(reads.stamps()).isEqualTo(1);
        assertThat(reads.whole()).isEmpty();
    }

    @Test
    void theSameVersionWrittenByAnotherMessageIsAnotherState() {
        var remembered = plain("1001");
        save(remembered);
        var cache = FlightCache.holding(10);
        var recreated = new FlightState(remembered.flid(), remembered.status(), remembered.stateVersion(),
                remembered.operationDay(), 4242, remembered.fields().with(FlightField.FLNO, "ZZ1"), remembered.lists());
        cache.remember(List.of(recreated));

        assertThat(cache.stored(FlightStamp.of(remembered))).isNull();
        assertThat(cache.size()).as("a state that no longer matches is dropped").isZero();
    }

    @Test
    void theLeastRecentlyUsedFlightLeavesWhenTheCacheIsFull() {
        var cache = FlightCache.holding(2);
        cache.remember(List.of(plain("1001"), plain("1002")));
        assertThat(cache.stored(FlightStamp.of(plain("1001")))).isNotNull(); // 1002 is now the eldest

        cache.remember(List.of(plain("1003")));

        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.stored(FlightStamp.of(plain("1002")))).isNull();
        assertThat(cache.stored(FlightStamp.of(plain("1001")))).isNotNull();
        assertThat(cache.stored(FlightStamp.of(plain("1003")))).isNotNull();
    }

    @Test
    void withTheCacheOffFlightsAreReadWholeWithoutStamps() {
        save(plain("1001"));
        var cache = FlightCache.off();
        cache.remember(List.of(plain("1001")));

        var reads = inTransaction(cache, buffer -> assertThat(buffer.find(ids("1001"))).containsExactly(plain("1001")));

        assertThat(cache.size()).isZero();
        assertThat(reads.stamps()).isZero();
        assertThat(reads.whole()).containsExactly(ids("1001"));
    }

    private void save(FlightState... states) {
        store.inTransaction(tx -> {
            tx.flights().save(List.of(states), clock.instant());
            return null;
        });
    }

    /** What a transaction asked of the store: its stamp reads, and the FLIDs it read whole, one list per call. */
    private record Reads(int stamps, List<List<FlightId>> whole) {
    }

    private interface BufferWork {
        void run(FlightBuffer buffer);
    }

    private Reads inTransaction(FlightCache cache, BufferWork work) {
        var whole = new ArrayList<List<FlightId>>();
        var stamps = new int[1];
        store.inTransaction(tx -> {
            var counted = new FlightStore() {
                @Override
                public List<FlightState> find(Collection<FlightId> flids) {
                    whole.add(List.copyOf(flids));
                    return tx.flights().find(flids);
                }

                @Override
                public List<FlightState> findChildrenOf(Collection<FlightId> masters) {
                    whole.add(List.copyOf(masters));
                    return tx.flights().findChildrenOf(masters);
                }

                @Override
                public List<FlightStamp> stampsOf(Collection<FlightId> flids, Collection<FlightId> masters) {
                    stamps[0]++;
                    return tx.flights().stampsOf(flids, masters);
                }

                @Override
                public java.util.Map<FlightId, Long> formerVersions(Collection<FlightId> absent) {
                    return tx.flights().formerVersions(absent);
                }

                @Override
                public void save(Collection<FlightState> states, Instant now) {
                    tx.flights().save(states, now);
                }
            };
            work.run(new FlightBuffer(counted, cache));
            return null;
        });
        return new Reads(stamps[0], whole);
    }
}
