package io.msgx.adapter.jdbc;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.store.LeaseLostException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the leader lease bounded in time must do on every database (issue 38, D-108): one holder at a time, an epoch
 * that grows at every take-over, a take-over once the holder stopped renewing whatever its sessions are doing, and a
 * fence that refuses every transaction of a holder that lost the lease, while a take-over waits for the ones in
 * flight. The expiry is the database's: these tests wait for it in real time (leases of one second).
 */
public abstract class EpochLeaseContract {

    private static final Instant EPOCH_ZERO = Instant.EPOCH;
    private final List<JdbcEpochLease> leases = new ArrayList<>();

    /** The migrated store's connections (the lease row {@code LEADER} at epoch 0). */
    protected abstract DataSource dataSource();

    protected abstract SqlDialect dialect();

    /** A store on {@link #dataSource()}, for the fence's tests. */
    protected abstract JdbcPipelineStore<?> store();

    @AfterEach
    void releaseLeases() {
        leases.forEach(JdbcEpochLease::close);
    }

    private JdbcEpochLease lease(String holder, Duration duration) {
        return lease(holder, duration, System::nanoTime);
    }

    private JdbcEpochLease lease(String holder, Duration duration, java.util.function.LongSupplier nanoTime) {
        var lease = new JdbcEpochLease(dataSource(), dialect(), new JdbcEpochLease.Settings("LEADER", holder, duration,
                Duration.ofSeconds(1)), nanoTime);
        leases.add(lease);
        return lease;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void oneHolderAtATimeAndTheEpochCountsTheTakeOvers() {
        var first = lease("first", Duration.ofSeconds(30));
        var second = lease("second", Duration.ofSeconds(30));

        assertThat(first.tryAcquire()).isTrue();
        assertThat(second.tryAcquire()).as("held and not expired").isFalse();
        assertThat(first.epoch()).isEqualTo(1);
        assertThat(second.epoch()).isZero();
        assertThat(first.renew()).isTrue();
        assertThat(first.row()).hasValueSatisfying(row -> {
            assertThat(row.holder()).isEqualTo("first");
            assertThat(row.epoch()).isEqualTo(1);
            assertThat(row.expiresAt()).isAfter(row.renewedAt());
        });

        first.close();
        assertThat(second.tryAcquire()).as("released: taken at once, not at expiry").isTrue();
        assertThat(second.epoch()).isEqualTo(2);
        assertThat(first.isHeld()).isFalse();
    }

    @Test
    void aHolderThatStopsRenewingIsReplacedOnceItsLeaseExpiresAndThenKnowsIt() {
        var silent = lease("silent", Duration.ofSeconds(1));
        var standby = lease("standby", Duration.ofSeconds(30));
        assertThat(silent.tryAcquire()).isTrue();
        assertThat(standby.tryAcquire()).isFalse();

        sleep(Duration.ofMillis(1300)); // the silent holder renews nothing: frozen, or cut off from the store

        assertThat(standby.tryAcquire()).as("expired by the database's clock").isTrue();
        assertThat(standby.epoch()).isEqualTo(2);
        assertThat(silent.isHeld()).as("its own clock told it first").isFalse();
        assertThat(silent.renew()).as("and a renewal finds another epoch").isFalse();
        assertThat(silent.tryAcquire()).as("the new holder's lease stands").isFalse();
    }

    @Test
    void aHolderStopsBelievingItHoldsTheLeaseBeforeTheDatabaseLetsAnotherTakeIt() {
        var clock = new AtomicLong();
        var holder = lease("holder", Duration.ofSeconds(10), clock::get);
        assertThat(holder.tryAcquire()).isTrue();

        clock.addAndGet(Duration.ofSeconds(8).toNanos());
        assertThat(holder.isHeld()).isTrue();
        clock.addAndGet(Duration.ofMillis(1100).toNanos());

        assertThat(holder.isHeld()).as("10 s less its margin (a tenth) after the renewal started").isFalse();
        assertThat(holder.row()).hasValueSatisfying(row -> assertThat(row.epoch()).isEqualTo(1));
        assertThat(lease("standby", Duration.ofSeconds(10)).tryAcquire()).as("the database's lease still runs")
                .isFalse();
    }

    @Test
    void aFencedStoreWritesWhileItsInstanceHoldsTheLeaseAndNothingOnceAnotherTookItOver() {
        var active = lease("active", Duration.ofSeconds(1));
        assertThat(active.tryAcquire()).isTrue();
        var store = store();
        store.fenceWith(active);
        store.inLockedTransaction(tx -> tx.queue().insertIfAbsent(101, EPOCH_ZERO, EPOCH_ZERO));
        assertThat(store.queue().find(101)).isPresent();

        sleep(Duration.ofMillis(1300));
        var taker = lease("taker", Duration.ofSeconds(30));
        assertThat(taker.tryAcquire()).isTrue();

        assertThatThrownBy(() -> store.inTransaction(tx -> tx.queue().insertIfAbsent(102, EPOCH_ZERO, EPOCH_ZERO)))
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.queue().find(102)).as("nothing written").isEmpty();
    }

    /**
     * The writes a store's ports make outside any pipeline transaction (the dispatcher's confirmations, the lifecycle
     * jobs, the operator actions) prove the lease as its transactions do: each commits while its instance holds the
     * lease, and nothing once another took it over; the instance can still read.
     */
    @Test
    void theAutoCommittedWritesOfAFencedStoreProveTheLeaseToo() {
        var active = lease("active", Duration.ofSeconds(1));
        assertThat(active.tryAcquire()).isTrue();
        var store = store();
        store.fenceWith(active);
        var flid = FlightId.of("4711");
        store.inTransaction(tx -> {
            tx.notifications().appendAll(List.of(notification(flid, 1), notification(flid, 2)));
            return null;
        });
        var pending = store.notifications().notificationsOf(flid, 10).stream().map(OutboxEntry::eventId).toList();
        assertThat(pending).hasSize(2);
        assertThat(store.notifications().markAllSent(pending.subList(0, 1), EPOCH_ZERO)).as("held: confirmed")
                .isEqualTo(1);
        assertThat(store.queue().insertIfAbsent(106, EPOCH_ZERO, EPOCH_ZERO)).as("held: enqueued").isTrue();

        sleep(Duration.ofMillis(1300));
        assertThat(lease("taker", Duration.ofSeconds(30)).tryAcquire()).isTrue();

        assertThatThrownBy(() -> store.notifications().markAllSent(pending.subList(1, 2), EPOCH_ZERO))
                .isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> store.queue().insertIfAbsent(107, EPOCH_ZERO, EPOCH_ZERO))
                .isInstanceOf(LeaseLostException.class);
        assertThat(store.notifications().notificationsOf(flid, 10)).as("read, and the second still pending")
                .extracting(entry -> entry.status()).containsExactly(OutboxEntry.DeliveryStatus.SENT,
                        OutboxEntry.DeliveryStatus.PENDING);
        assertThat(store.queue().find(106)).isPresent();
        assertThat(store.queue().find(107)).as("nothing written").isEmpty();
    }

    private static OutboxEvent notification(FlightId flid, long stateVersion) {
        return new OutboxEvent(OutboxTarget.KAFKA_MSG, flid, OutboxEvent.EventType.UPSERT, stateVersion, 200 + stateVersion,
                "{}", EPOCH_ZERO);
    }

    @Test
    void aFenceRefusesAnEpochTheDatabaseNoLongerHoldsEvenWhileItsOwnClockSaysHeld() {
        var clock = new AtomicLong();
        var stale = lease("stale", Duration.ofSeconds(1), clock::get); // its clock stands still: a frozen JVM
        assertThat(stale.tryAcquire()).isTrue();
        sleep(Duration.ofMillis(1300));
        assertThat(lease("taker", Duration.ofSeconds(30)).tryAcquire()).isTrue();
        var store = store();
        store.fenceWith(stale);

        assertThat(stale.isHeld()).as("it cannot tell by itself").isTrue();
        assertThatThrownBy(() -> store.inTransaction(tx -> tx.queue().insertIfAbsent(103, EPOCH_ZERO, EPOCH_ZERO)))
                .isInstanceOf(LeaseLostException.class).hasMessageContaining("another instance took over");
        assertThat(store.queue().find(103)).isEmpty();
    }

    @Test
    void aTakeOverWaitsForTheWriteInFlightWhichCommitsBeforeIt() throws Exception {
        var active = lease("active", Duration.ofSeconds(1));
        assertThat(active.tryAcquire()).isTrue();
        var store = store();
        store.fenceWith(active);
        var inFlight = WriteInFlight.open(store, 104);
        sleep(Duration.ofMillis(1300)); // expired while the write is still open

        var taker = lease("taker", Duration.ofSeconds(30));
        assertThat(taker.tryAcquire()).as("the write in flight holds the lease row").isFalse();
        inFlight.commit();

        assertThat(taker.tryAcquire()).isTrue();
        assertThat(store.queue().find(104)).as("committed under the old epoch, before the take-over").isPresent();
    }

    /**
     * A standby asks every few seconds: a look at a lease that has not expired takes no lock, so it never queues behind
     * the holder's writes in flight (where the holder's next writes would queue behind it).
     */
    @Test
    void aStandbyLookingAtALeaseThatHasNotExpiredWaitsForNoWriteInFlight() throws Exception {
        var active = lease("active", Duration.ofSeconds(30));
        assertThat(active.tryAcquire()).isTrue();
        var store = store();
        store.fenceWith(active);
        var inFlight = WriteInFlight.open(store, 105);
        var patient = new JdbcEpochLease(dataSource(), dialect(), new JdbcEpochLease.Settings("LEADER", "standby",
                Duration.ofSeconds(30), Duration.ofSeconds(5)), System::nanoTime);
        leases.add(patient);
        try {
            long started = System.nanoTime();
            assertThat(patient.tryAcquire()).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("no wait for the write in flight (its lock"
                    + " wait is 5 s)").isLessThan(Duration.ofMillis(2500));
        } finally {
            inFlight.commit();
        }
    }

    /**
     * A fenced transaction of the holder held open on a thread of its own: it has proved the lease (and holds the
     * lease row's lock) and written message {@code msgId}; {@link #commit} lets it end.
     */
    private record WriteInFlight(CountDownLatch finish, CompletableFuture<Void> done) {

        static WriteInFlight open(JdbcPipelineStore<?> store, long msgId) throws InterruptedException {
            var proved = new CountDownLatch(1);
            var finish = new CountDownLatch(1);
            var done = CompletableFuture.runAsync(() -> store.inTransaction(tx -> {
                tx.queue().insertIfAbsent(msgId, EPOCH_ZERO, EPOCH_ZERO);
                proved.countDown();
                await(finish);
                return null;
            }));
            assertThat(proved.await(10, TimeUnit.SECONDS)).as("the write in flight proved the lease").isTrue();
            return new WriteInFlight(finish, done);
        }

        void commit() throws Exception {
            finish.countDown();
            done.get(10, TimeUnit.SECONDS);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
