package io.msgx.pipeline.store;

import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestKind;
import io.msgx.pipeline.record.RequestStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every store's {@link RequestTrack} must do: register a PENDING request, first expiring the open request of
 * the same key (one registered by a transaction still open too: the registration waits for it); PENDING → SENT only
 * by a confirmed write; SENT → DONE only; closed requests never change and never block a new one; lookups by ID and
 * SEQN; the SENT candidates of degraded matching, oldest first; expiry of open requests by creation time; closed
 * requests' retention by their close time. A store's test class extends this and supplies a fresh, empty store per
 * test.
 */
public abstract class RequestTrackContract extends StoreContract {

    protected static final LocalDate DAY = LocalDate.of(2024, 3, 11);
    protected static final Instant STDB = Instant.parse("2024-03-11T00:00:00Z");
    protected static final Instant STDE = Instant.parse("2024-03-12T00:00:00Z");

    private int seqns;

    protected RequestTrack requests() {
        return store().requests();
    }

    protected String nextSeqn() {
        return "RMS-" + (++seqns);
    }

    protected Request schedule(LocalDate day, String sender) {
        return requests().register(RequestKind.SCHEDULE, null, day, sender, nextSeqn(), STDB, STDE, clock.instant());
    }

    protected Request reference(String type, LocalDate day) {
        return requests().register(RequestKind.REFERENCE, type, day, "RMS", nextSeqn(), null, null, clock.instant());
    }

    private Request sent(Request r) {
        assertThat(requests().markSent(r.id(), 1000 + r.id(), clock.instant())).isTrue();
        return requests().find(r.id()).orElseThrow();
    }

    private RequestStatus status(Request r) {
        return requests().find(r.id()).orElseThrow().status();
    }

    // --- register ---

    @Test
    void registerInsertsAPendingRequest() {
        var now = clock.instant();
        var r = requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "RMS-7", STDB, STDE, now);

        assertThat(r).isEqualTo(new Request(r.id(), RequestKind.SCHEDULE, null, DAY, "RMS", RequestStatus.PENDING,
                "RMS-7", null, STDB, STDE, now, null, null, null, null));
        assertThat(r.typeKey()).isEqualTo("RQFD");
        assertThat(requests().find(r.id())).contains(r);
    }

    @Test
    void pendingListsTheUnconfirmedRequestsOldestFirst() {
        var first = schedule(DAY, "RMS");
        clock.tick(Duration.ofSeconds(1));
        var confirmed = sent(reference("GATE", null));
        clock.tick(Duration.ofSeconds(1));
        var second = reference("AIRL", null);

        assertThat(requests().pending()).extracting(Request::id).containsExactly(first.id(), second.id());
        assertThat(requests().pending()).extracting(Request::id).doesNotContain(confirmed.id());
    }

    @Test
    void aReferenceRequestKeepsItsTypeAndMayCoverNoDay() {
        var r = reference("GATE", null);

        assertThat(requests().find(r.id()).orElseThrow()).satisfies(found -> {
            assertThat(found.kind()).isEqualTo(RequestKind.REFERENCE);
            assertThat(found.subject()).isEqualTo("GATE");
            assertThat(found.typeKey()).isEqualTo("GATE");
            assertThat(found.coverDay()).isNull();
        });
    }

    @Test
    void registerExpiresTheOpenRequestOfTheSameKeyFirst() {
        var pending = schedule(DAY, "RMS");
        var sent = sent(reference("GATE", DAY));
        clock.tick(Duration.ofMinutes(5));
        var now = clock.instant();

        var newSchedule = schedule(DAY, "RMS");
        var newGate = reference("GATE", DAY);

        assertThat(requests().find(pending.id()).orElseThrow())
                .extracting(Request::status, Request::closedAt).containsExactly(RequestStatus.EXPIRED, now);
        assertThat(requests().find(sent.id()).orElseThrow())
                .extracting(Request::status, Request::closedAt, Request::outMsgId)
                .containsExactly(RequestStatus.EXPIRED, now, sent.outMsgId());
        assertThat(status(newSchedule)).isEqualTo(RequestStatus.PENDING);
        assertThat(status(newGate)).isEqualTo(RequestStatus.PENDING);
    }

    @Test
    void aReferenceRequestWithoutDayExpiresTheOpenOneWithoutDay() {
        var first = reference("AIRL", null);
        var second = reference("AIRL", null);

        assertThat(status(first)).isEqualTo(RequestStatus.EXPIRED);
        assertThat(status(second)).isEqualTo(RequestStatus.PENDING);
    }

    @Test
    void requestsOfAnotherKeyStayOpen() {
        var base = schedule(DAY, "RMS");
        var otherDay = schedule(DAY.plusDays(1), "RMS");
        var otherSender = schedule(DAY, "OPS");
        var gate = reference("GATE", DAY);
        var stand = reference("STND", DAY);
        var gateNoDay = reference("GATE", null);

        schedule(DAY, "RMS");

        assertThat(status(base)).isEqualTo(RequestStatus.EXPIRED);
        for (var r : new Request[]{otherDay, otherSender, gate, stand, gateNoDay}) {
            assertThat(status(r)).as("request %s", r).isEqualTo(RequestStatus.PENDING);
        }
    }

    @Test
    void closedRequestsDoNotBlockANewOne() {
        var done = sent(schedule(DAY, "RMS"));
        assertThat(requests().complete(done.id(), 55, MatchMode.EXACT, clock.instant())).isTrue();
        var afterDone = schedule(DAY, "RMS");
        assertThat(requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant())).isEqualTo(1);
        var doneAt = requests().find(done.id()).orElseThrow();

        var afterExpired = schedule(DAY, "RMS");

        assertThat(status(afterDone)).isEqualTo(RequestStatus.EXPIRED);
        assertThat(status(afterExpired)).isEqualTo(RequestStatus.PENDING);
        assertThat(requests().find(done.id())).contains(doneAt);
        assertThat(doneAt.status()).isEqualTo(RequestStatus.DONE);
    }

    @Test
    void registerRefusesWhatCannotBeARequest() {
        var now = clock.instant();
        var r = requests();
        assertThatThrownBy(() -> r.register(RequestKind.SCHEDULE, null, null, "RMS", "S1", STDB, STDE, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.SCHEDULE, "GATE", DAY, "RMS", "S1", STDB, STDE, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.REFERENCE, null, DAY, "RMS", "S1", null, null, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.REFERENCE, "RQFD", DAY, "RMS", "S1", null, null, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.REFERENCE, "X".repeat(17), DAY, "RMS", "S1", null, null, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.SCHEDULE, null, DAY, " ", "S1", STDB, STDE, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.SCHEDULE, null, DAY, "RMS", "", STDB, STDE, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> r.register(RequestKind.SCHEDULE, null, DAY, "RMS", "S1", STDE, STDB, now))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(r.findBySeqn("S1")).isEmpty();
    }

    @Test
    void aScheduleWindowMayBeOpenAtOneEndButNotAtBoth() {
        var fromOnly = requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "W1", STDB, null, clock.instant());
        var toOnly = requests().register(RequestKind.SCHEDULE, null, DAY.plusDays(1), "RMS", "W2", null, STDE,
                clock.instant());

        assertThat(requests().find(fromOnly.id()).orElseThrow())
                .extracting(Request::windowStart, Request::windowEnd).containsExactly(STDB, null);
        assertThat(requests().find(toOnly.id()).orElseThrow())
                .extracting(Request::windowStart, Request::windowEnd).containsExactly(null, STDE);
        assertThatThrownBy(() -> requests().register(RequestKind.SCHEDULE, null, DAY.plusDays(2), "RMS", "W3", null,
                null, clock.instant())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("STDB");
        assertThat(requests().findBySeqn("W3")).isEmpty();
    }

    @Test
    void aUsedSeqnIsRefusedAndTheOpenRequestStaysOpen() {
        var first = requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "RMS-1", STDB, STDE, clock.instant());

        assertThatThrownBy(() -> requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "RMS-1", STDB, STDE,
                clock.instant())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RMS-1");
        assertThat(requests().find(first.id())).contains(first);
    }

    @Test
    void registerJoinsTheTransactionAndARollbackKeepsTheOldRequestOpen() {
        var old = schedule(DAY, "RMS");

        assertThatThrownBy(() -> store().inTransaction(tx -> {
            tx.requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "RMS-new", STDB, STDE, clock.instant());
            assertThat(tx.requests().find(old.id()).orElseThrow().status()).isEqualTo(RequestStatus.EXPIRED);
            throw new IllegalStateException("rollback");
        })).hasMessage("rollback");

        assertThat(requests().find(old.id())).contains(old);
        assertThat(requests().findBySeqn("RMS-new")).isEmpty();
    }

    @Test
    void registeringTwiceInOneTransactionLeavesOneOpen() {
        var ids = store().inTransaction(tx -> new long[]{
                tx.requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "A", STDB, STDE, clock.instant()).id(),
                tx.requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "B", STDB, STDE, clock.instant()).id()});

        assertThat(requests().find(ids[0]).orElseThrow().status()).isEqualTo(RequestStatus.EXPIRED);
        assertThat(requests().find(ids[1]).orElseThrow().status()).isEqualTo(RequestStatus.PENDING);
    }

    @Test
    void aRegistrationOfTheKeyInAnotherTransactionWaitsForItAndExpiresItsRequest() throws Exception {
        var registered = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var executor = Executors.newFixedThreadPool(2);
        try {
            var first = executor.submit(() -> store().inTransaction(tx -> {
                var r = tx.requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "A", STDB, STDE,
                        clock.instant());
                registered.countDown();
                awaitQuietly(release);
                return r;
            }));
            assertThat(registered.await(10, TimeUnit.SECONDS)).isTrue();
            var second = executor.submit(() -> requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "B", STDB,
                    STDE, clock.instant()));
            Thread.sleep(300);
            assertThat(second.isDone()).as("waits for the first registration's transaction").isFalse();

            release.countDown();
            var a = first.get(10, TimeUnit.SECONDS);
            var b = second.get(10, TimeUnit.SECONDS);

            assertThat(status(a)).isEqualTo(RequestStatus.EXPIRED);
            assertThat(status(b)).isEqualTo(RequestStatus.PENDING);
        } finally {
            release.countDown();
            executor.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // --- markSent ---

    @Test
    void markSentMovesPendingToSentAndLinksTheOutboundMessage() {
        var r = schedule(DAY, "RMS");
        clock.tick(Duration.ofSeconds(3));
        var at = clock.instant();

        assertThat(requests().markSent(r.id(), 4711, at)).isTrue();

        var found = requests().find(r.id()).orElseThrow();
        assertThat(found).isEqualTo(new Request(r.id(), RequestKind.SCHEDULE, null, DAY, "RMS", RequestStatus.SENT,
                r.seqn(), 4711L, STDB, STDE, r.createdAt(), at, null, null, null));
    }

    @Test
    void markSentMovesOnlyAPendingRequest() {
        var sent = sent(schedule(DAY, "RMS"));
        var expired = schedule(DAY, "OPS");
        requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        var expiredRow = requests().find(expired.id()).orElseThrow();

        assertThat(requests().markSent(sent.id(), 9999, clock.instant().plusSeconds(9))).isFalse();
        assertThat(requests().markSent(expired.id(), 9999, clock.instant())).isFalse();
        assertThat(requests().markSent(424242, 9999, clock.instant())).isFalse();

        assertThat(requests().find(sent.id()).orElseThrow())
                .extracting(Request::status, Request::outMsgId).containsExactly(RequestStatus.EXPIRED, sent.outMsgId());
        assertThat(requests().find(expired.id())).contains(expiredRow);
    }

    // --- find, findBySeqn ---

    @Test
    void findsByIdAndBySeqnWhateverTheStatus() {
        var r = schedule(DAY, "RMS");
        schedule(DAY, "RMS");

        assertThat(requests().findBySeqn(r.seqn()).orElseThrow().id()).isEqualTo(r.id());
        assertThat(requests().findBySeqn(r.seqn()).orElseThrow().status()).isEqualTo(RequestStatus.EXPIRED);
        assertThat(requests().findBySeqn("unknown")).isEmpty();
        assertThat(requests().find(424242)).isEmpty();
    }

    @Test
    void aClosedRequestsSeqnMayBeCarriedAgainAndTheAnswersLookupFindsTheOpenOne() {
        var old = sent(requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "000042", STDB, STDE,
                clock.instant()));
        assertThat(requests().complete(old.id(), 7, MatchMode.EXACT, clock.instant())).isTrue();
        requests().register(RequestKind.REFERENCE, "GLST", null, "RMS", "000042", null, null, clock.instant());
        requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        clock.tick(Duration.ofMinutes(1));

        var again = requests().register(RequestKind.REFERENCE, "SLST", null, "RMS", "000042", null, null,
                clock.instant());
        var later = schedule(DAY.plusDays(1), "RMS"); // registered after it, with another number

        assertThat(requests().findBySeqn("000042")).as("the open request, never an older closed one").contains(again);
        assertThatThrownBy(() -> requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "000042", STDB, STDE,
                clock.instant())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("open request "
                + again.id());
        assertThat(requests().find(later.id()).orElseThrow().status()).isEqualTo(RequestStatus.PENDING);

        requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        assertThat(requests().findBySeqn("000042").orElseThrow().id()).as("all closed: the latest of them")
                .isEqualTo(again.id());
    }

    @Test
    void lastSeqnIsTheNumberOfTheRequestRegisteredLastWhateverItsStatus() {
        assertThat(requests().lastSeqn()).isEmpty();
        requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "000998", STDB, STDE, clock.instant());
        requests().register(RequestKind.SCHEDULE, null, DAY, "RMS", "000002", STDB, STDE,
                clock.instant().minusSeconds(60)); // an earlier clock: the order of registration decides

        assertThat(requests().lastSeqn()).contains("000002");
        requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        assertThat(requests().lastSeqn()).as("closed, still the last registered").contains("000002");
    }

    @Test
    void openSeqnsAreTheNumbersOfThePendingAndSentRequests() {
        var pending = schedule(DAY, "RMS");
        var sent = sent(reference("GLST", null));
        var done = sent(reference("SLST", null));
        requests().complete(done.id(), 5, MatchMode.EXACT, clock.instant());
        schedule(DAY.plusDays(1), "RMS"); // expired by the next
        var replacing = schedule(DAY.plusDays(1), "RMS");

        assertThat(requests().openSeqns()).containsExactlyInAnyOrder(pending.seqn(), sent.seqn(), replacing.seqn());
    }

    // --- openOf ---

    @Test
    void openOfListsTheSentRequestsOfAKindOldestFirst() {
        var first = sent(schedule(DAY, "RMS"));
        clock.tick(Duration.ofMinutes(1));
        var second = sent(schedule(DAY.plusDays(1), "RMS"));
        clock.tick(Duration.ofMinutes(1));
        schedule(DAY.plusDays(2), "RMS"); // pending: nothing was sent
        var gate = sent(reference("GATE", DAY));
        sent(reference("STND", DAY));
        var done = sent(schedule(DAY.plusDays(3), "RMS"));
        requests().complete(done.id(), 77, MatchMode.DEGRADED, clock.instant());

        assertThat(requests().openOf(RequestKind.SCHEDULE, null)).extracting(Request::id)
                .containsExactly(first.id(), second.id());
        assertThat(requests().openOf(RequestKind.REFERENCE, "GATE")).containsExactly(gate);
        assertThat(requests().openOf(RequestKind.REFERENCE, "BELT")).isEmpty();
    }

    // --- complete ---

    @Test
    void completeMovesSentToDone() {
        var r = sent(schedule(DAY, "RMS"));
        clock.tick(Duration.ofMinutes(2));
        var at = clock.instant();

        assertThat(requests().complete(r.id(), 88, MatchMode.DEGRADED, at)).isTrue();

        assertThat(requests().find(r.id()).orElseThrow()).isEqualTo(new Request(r.id(), RequestKind.SCHEDULE, null, DAY,
                "RMS", RequestStatus.DONE, r.seqn(), r.outMsgId(), STDB, STDE, r.createdAt(), r.sentAt(), at, 88L,
                MatchMode.DEGRADED));
    }

    @Test
    void completeMovesOnlyASentRequest() {
        var pending = schedule(DAY, "RMS");
        var done = sent(schedule(DAY, "OPS"));
        requests().complete(done.id(), 1, MatchMode.EXACT, clock.instant());
        var doneRow = requests().find(done.id()).orElseThrow();

        assertThat(requests().complete(pending.id(), 2, MatchMode.EXACT, clock.instant())).isFalse();
        assertThat(requests().complete(done.id(), 3, MatchMode.DEGRADED, clock.instant().plusSeconds(5))).isFalse();
        assertThat(requests().complete(424242, 4, MatchMode.EXACT, clock.instant())).isFalse();

        assertThat(requests().find(pending.id())).contains(pending);
        assertThat(requests().find(done.id())).contains(doneRow);
    }

    @Test
    void aLateAnswerNeverChangesAnExpiredRequest() {
        var old = sent(schedule(DAY, "RMS"));
        schedule(DAY, "RMS");
        var expired = requests().find(old.id()).orElseThrow();

        assertThat(requests().complete(old.id(), 99, MatchMode.EXACT, clock.instant().plusSeconds(60))).isFalse();

        assertThat(requests().find(old.id())).contains(expired);
        assertThat(expired.status()).isEqualTo(RequestStatus.EXPIRED);
    }

    // --- expireOpenBefore ---

    @Test
    void expireOpenBeforeExpiresOnlyOpenRequestsCreatedBeforeTheCutoff() {
        var oldPending = schedule(DAY, "RMS");
        var oldSent = sent(reference("GATE", null));
        var oldDone = sent(reference("STND", null));
        requests().complete(oldDone.id(), 5, MatchMode.EXACT, clock.instant());
        var doneRow = requests().find(oldDone.id()).orElseThrow();
        clock.tick(Duration.ofHours(1));
        var cutoff = clock.instant();
        var atCutoff = schedule(DAY, "OPS");
        clock.tick(Duration.ofMinutes(1));
        var now = clock.instant();

        assertThat(requests().expireOpenBefore(cutoff, now)).isEqualTo(2);

        for (var r : new Request[]{oldPending, oldSent}) {
            assertThat(requests().find(r.id()).orElseThrow())
                    .extracting(Request::status, Request::closedAt).containsExactly(RequestStatus.EXPIRED, now);
        }
        assertThat(requests().find(oldDone.id())).contains(doneRow);
        assertThat(status(atCutoff)).isEqualTo(RequestStatus.PENDING);
        assertThat(requests().expireOpenBefore(cutoff, now)).isZero();
    }

    // --- retention (Housekeeping.deleteClosedRequestsBefore, closedAt = DONE_AT) ---

    @Test
    void housekeepingDeletesRequestsClosedBeforeTheCutoff() {
        var done = sent(schedule(DAY, "RMS"));
        requests().complete(done.id(), 5, MatchMode.EXACT, clock.instant());
        var expired = reference("GATE", DAY);
        reference("GATE", DAY);
        var open = sent(reference("STND", DAY));
        clock.tick(Duration.ofDays(1));
        var recent = sent(schedule(DAY, "OPS"));
        requests().complete(recent.id(), 6, MatchMode.EXACT, clock.instant());

        assertThat(store().housekeeping().deleteClosedRequestsBefore(clock.instant(), 10)).isEqualTo(2);

        assertThat(requests().find(done.id())).isEmpty();
        assertThat(requests().find(expired.id())).isEmpty();
        assertThat(requests().find(open.id())).isPresent();
        assertThat(requests().find(recent.id())).isPresent();
    }
}
