package io.msgx.pipeline.store;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.RawMessageCopies;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.port.ScheduleLog;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * An in-memory {@link PipelineStore} for pipeline tests: the same contracts as the database stores (it runs
 * their contract tests), no database. A transaction works on a copy of the state and publishes it on commit;
 * transactions are serialised by one lock, which also stands for {@code PIPELINE_LOCK}.
 */
public final class InMemoryPipelineStore implements PipelineStore {

    /** The width of {@code LAST_ERROR} in the database schemas; longer texts are cut, as there. */
    static final int LAST_ERROR_WIDTH = 2000;

    private final ReentrantLock lock = new ReentrantLock();
    private State state = new State();
    private final List<ScheduleLog.Entry> trail = new ArrayList<>();

    @Override
    public <T> T inTransaction(TransactionWork<T> work) {
        lock.lock();
        try {
            var working = state.copy();
            var result = work.run(new Tx(working));
            state = working;
            return result;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public <T> T inLockedTransaction(TransactionWork<T> work) {
        return inTransaction(work);
    }

    @Override
    public MessageQueue queue() {
        return autoCommitted(MessageQueue.class, PipelineTransaction::queue);
    }

    @Override
    public IdentityRegister identities() {
        return autoCommitted(IdentityRegister.class, PipelineTransaction::identities);
    }

    @Override
    public BackfillMarks backfillMarks() {
        return autoCommitted(BackfillMarks.class, PipelineTransaction::backfillMarks);
    }

    @Override
    public MessageReplays replays() {
        return autoCommitted(MessageReplays.class, PipelineTransaction::replays);
    }

    @Override
    public MessageArchive messageArchive() {
        return autoCommitted(MessageArchive.class, PipelineTransaction::messageArchive);
    }

    @Override
    public MessageQueries messageQueries() {
        return autoCommitted(MessageQueries.class, PipelineTransaction::messageQueries);
    }

    @Override
    public InboxCursors inboxCursor() {
        return autoCommitted(InboxCursors.class, PipelineTransaction::inboxCursor);
    }

    @Override
    public FlightQueries flightQueries() {
        return autoCommitted(FlightQueries.class, PipelineTransaction::flightQueries);
    }

    @Override
    public Notifications notifications() {
        return autoCommitted(Notifications.class, PipelineTransaction::notifications);
    }

    @Override
    public Projections projections() {
        return autoCommitted(Projections.class, PipelineTransaction::projections);
    }

    @Override
    public ReferenceNotifications referenceNotifications() {
        return autoCommitted(ReferenceNotifications.class, PipelineTransaction::referenceNotifications);
    }

    @Override
    public DeadLetters deadLetters() {
        return autoCommitted(DeadLetters.class, PipelineTransaction::deadLetters);
    }

    @Override
    public OutboxCleanup outboxCleanup() {
        return autoCommitted(OutboxCleanup.class, PipelineTransaction::outboxCleanup);
    }

    @Override
    public OutboxQueries outboxQueries() {
        return autoCommitted(OutboxQueries.class, PipelineTransaction::outboxQueries);
    }

    /**
     * {@code port} as the database stores hand it out in auto-commit: every call a transaction of its own, run by the
     * port bound to that transaction.
     */
    private <P> P autoCommitted(Class<P> port, Function<PipelineTransaction, P> bound) {
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "auto-committed " + port.getSimpleName();
                };
            }
            return inTransaction(tx -> invoke(method, bound.apply(tx), args));
        }));
    }

    private static Object invoke(Method method, Object target, Object[] args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Housekeeping housekeeping() {
        return new Housekeeping() {
            @Override
            public int deleteProcessingHistoryBefore(Instant cutoff, int limit) {
                return inTransaction(tx -> removeWhere(((Tx) tx).state.processingHistory,
                        a -> a.archivedAt().isBefore(cutoff), limit));
            }

            @Override
            public int deleteFlightHistoryBefore(Instant cutoff, int limit) {
                return inTransaction(tx -> removeWhere(((Tx) tx).state.flightHistory,
                        a -> a.archivedAt().isBefore(cutoff), limit));
            }

            @Override
            public int deleteScheduleLogBefore(java.time.LocalDate scopeEndBefore, Instant recordedBefore, int limit) {
                synchronized (trail) {
                    var doomed = trail.stream()
                            .filter(e -> e.recordedAt().isBefore(recordedBefore)
                                    && (e.scopeEnd() == null || e.scopeEnd().isBefore(scopeEndBefore)))
                            .limit(limit).toList();
                    trail.removeAll(doomed);
                    return doomed.size();
                }
            }

            @Override
            public int deleteClosedRequestsBefore(Instant cutoff, int limit) {
                return inTransaction(tx -> {
                    var requests = ((Tx) tx).state.requests;
                    var doomed = requests.values().stream()
                            .filter(r -> !r.status().isOpen() && r.closedAt().isBefore(cutoff))
                            .sorted(java.util.Comparator.comparing(Request::closedAt).thenComparing(Request::id))
                            .limit(limit).map(Request::id).toList();
                    doomed.forEach(requests::remove);
                    return doomed.size();
                });
            }

            @Override
            public int deleteRawCopiesBefore(Instant cutoff, int limit) {
                return inTransaction(tx -> removeWhere(((Tx) tx).state.rawCopies, c -> c.keptAt().isBefore(cutoff), limit));
            }
        };
    }

    @Override
    public RequestTrack requests() {
        return autoCommitted(RequestTrack.class, PipelineTransaction::requests);
    }

    @Override
    public RawMessageCopies rawCopies() {
        return new RawMessageCopies() {
            @Override
            public void keep(long msgId, String text, Instant at) {
                inTransaction(tx -> ((Tx) tx).state.rawCopies.putIfAbsent(msgId, new RawCopy(text, at)));
            }

            @Override
            public Optional<String> find(long msgId) {
                return inTransaction(tx -> Optional.ofNullable(((Tx) tx).state.rawCopies.get(msgId)).map(RawCopy::text));
            }
        };
    }

    @Override
    public ReferenceData referenceData() {
        return autoCommitted(ReferenceData.class, PipelineTransaction::referenceData);
    }

    private static <K, V> int removeWhere(Map<K, V> map, java.util.function.Predicate<V> doomed, int limit) {
        var keys = map.entrySet().stream().filter(e -> doomed.test(e.getValue())).limit(limit).map(Map.Entry::getKey).toList();
        keys.forEach(map::remove);
        return keys.size();
    }

    @Override
    public ScheduleLog scheduleLog() {
        return new ScheduleLog() {
            @Override
            public void append(Entry entry) {
                synchronized (trail) {
                    trail.add(entry);
                }
            }

            @Override
            public List<Entry> entriesOf(long msgId) {
                synchronized (trail) {
                    return trail.stream().filter(e -> e.msgId() == msgId).toList();
                }
            }
        };
    }

    /** Every flight, for assertions. */
    public List<FlightState> allFlights() {
        return inTransaction(tx -> List.copyOf(((Tx) tx).state.flights.values()));
    }

    /** Every processing record in ID order, for assertions. */
    public List<ProcRecord> allRecords() {
        return inTransaction(tx -> List.copyOf(((Tx) tx).state.procs.values()));
    }

    /** Every outbox row in EVENT_ID order, for assertions. */
    public List<OutboxEntry> allEvents() {
        return inTransaction(tx -> List.copyOf(((Tx) tx).state.events.values()));
    }

    /** Every {@code KAFKA:ref} row in {@code EVENT_ID} order, for assertions. */
    public List<ReferenceOutboxEntry> allReferenceEvents() {
        return inTransaction(tx -> List.copyOf(((Tx) tx).state.referenceEvents.values()));
    }

    private record Reconciliation(Instant at, String by, String note) {
    }

    private record ArchivedRecord(ProcRecord record, Instant archivedAt) {
    }

    private record ArchivedFlight(FlightState flight, String snapshot, Instant archivedAt) {
    }

    private record RawCopy(String text, Instant keptAt) {
    }

    /** How many copies of a message {@code PROC_STATE_HST} holds, for assertions. */
    public long processingHistoryCount(long msgId) {
        return inTransaction(tx -> ((Tx) tx).state.processingHistory.containsKey(msgId) ? 1L : 0L);
    }

    /** How many archived versions of a flight the history store holds, for assertions. */
    public long flightHistoryCount(FlightId flid) {
        return inTransaction(tx -> ((Tx) tx).state.flightHistory.values().stream()
                .filter(a -> a.flight().flid().equals(flid)).count());
    }

    private static final class State {
        final TreeMap<Long, ProcRecord> procs = new TreeMap<>();
        final Map<String, Long> identities = new HashMap<>();
        InboxCursor cursor = new InboxCursor(0, null, null);
        final Map<FlightId, FlightState> flights = new HashMap<>();
        final TreeMap<Long, OutboxEntry> events = new TreeMap<>();
        final Map<FlightId, Long> projectionByFlid = new HashMap<>();
        /** The {@code KAFKA:ref} rows by {@code EVENT_ID}, and each {@code RTYPE:RKEY}'s row. */
        final TreeMap<Long, ReferenceOutboxEntry> referenceEvents = new TreeMap<>();
        final Map<String, Long> referenceEventByKey = new HashMap<>();
        final Map<FlightId, Instant> flightUpdatedAt = new HashMap<>();
        final Map<Long, Reconciliation> reconciliations = new HashMap<>();
        final TreeMap<Long, ArchivedRecord> processingHistory = new TreeMap<>();
        final Map<String, ArchivedFlight> flightHistory = new HashMap<>();
        final TreeMap<Long, RawCopy> rawCopies = new TreeMap<>();
        /** {@code REF_MASTER} by {@link TxReferenceData#rowKey}: ordered by type, then key. */
        final TreeMap<String, ReferenceEntry> references = new TreeMap<>();
        /** {@code REQ_TRACK} by ID. */
        final TreeMap<Long, Request> requests = new TreeMap<>();
        long requestSeq;
        long eventSeq;

        State copy() {
            var copy = new State();
            copy.flightUpdatedAt.putAll(flightUpdatedAt);
            copy.reconciliations.putAll(reconciliations);
            copy.processingHistory.putAll(processingHistory);
            copy.flightHistory.putAll(flightHistory);
            copy.rawCopies.putAll(rawCopies);
            copy.references.putAll(references);
            copy.requests.putAll(requests);
            copy.requestSeq = requestSeq;
            copy.procs.putAll(procs);
            copy.identities.putAll(identities);
            copy.cursor = cursor;
            copy.flights.putAll(flights);
            copy.events.putAll(events);
            copy.projectionByFlid.putAll(projectionByFlid);
            copy.referenceEvents.putAll(referenceEvents);
            copy.referenceEventByKey.putAll(referenceEventByKey);
            copy.eventSeq = eventSeq;
            return copy;
        }
    }

    private static final class Tx extends TablePorts<TxProcStates, TxOutbox> implements PipelineTransaction {
        final State state;

        Tx(State state) {
            super(new TxProcStates(state), new TxOutbox(state));
            this.state = state;
        }

        @Override
        public ReferenceData referenceData() {
            return new TxReferenceData(state);
        }

        @Override
        public RequestTrack requests() {
            return new TxRequestTrack(state);
        }

        @Override
        public InboxCursors inboxCursor() {
            return new InboxCursors() {
                @Override
                public InboxCursor load() {
                    return state.cursor;
                }

                @Override
                public void save(long watermark, Instant holeSince) {
                    state.cursor = new InboxCursor(watermark, holeSince, state.cursor.seededAt());
                }

                @Override
                public boolean seed(long watermark, Instant seededAt) {
                    if (state.cursor.watermark() != 0 || state.cursor.seededAt() != null || !state.procs.isEmpty()) {
                        return false;
                    }
                    state.cursor = new InboxCursor(watermark, state.cursor.holeSince(), seededAt);
                    return true;
                }
            };
        }

        @Override
        public FlightQueries flightQueries() {
            return (flightNumber, operationDay) -> state.flights.values().stream()
                    .filter(f -> flightNumber.equals(f.fields().valueOf(io.msgx.domain.flight.FlightField.FLNO)))
                    .filter(f -> operationDay == null
                            || f.operationDay() != null && f.operationDay().date().equals(operationDay))
                    .map(FlightState::flid).sorted(java.util.Comparator.comparing(FlightId::value))
                    .limit(50).toList();
        }

        @Override
        public FlightStore flights() {
            return new FlightStore() {
                @Override
                public List<FlightState> find(Collection<FlightId> flids) {
                    return flids.stream().map(state.flights::get).filter(java.util.Objects::nonNull).toList();
                }


                @Override
                public List<FlightState> findChildrenOf(Collection<FlightId> masters) {
                    return state.flights.values().stream()
                            .filter(f -> {
                                var maid = f.fields().valueOf(io.msgx.domain.flight.FlightField.MAID);
                                return maid != null && FlightId.isValid(maid) && masters.contains(FlightId.of(maid));
                            })
                            .toList();
                }

                @Override
                public void save(Collection<FlightState> states, Instant now) {
                    states.forEach(s -> {
                        state.flights.put(s.flid(), s);
                        state.flightUpdatedAt.put(s.flid(), now);
                    });
                }
            };
        }

        @Override
        public FlightHistory flightHistory() {
            return new FlightHistory() {
                @Override
                public List<FlightId> candidates(java.time.LocalDate operationDayBefore, Instant unplacedBefore,
                                                 Instant quietBefore, int limit) {
                    return state.flights.values().stream()
                            .filter(f -> {
                                var updated = state.flightUpdatedAt.get(f.flid());
                                boolean pastLife = f.operationDay() != null
                                        ? f.operationDay().date().isBefore(operationDayBefore)
                                        : updated.isBefore(unplacedBefore);
                                boolean ended = !f.isActive() || updated.isBefore(quietBefore);
                                return pastLife && ended;
                            })
                            .sorted(java.util.Comparator.comparing((FlightState f) -> state.flightUpdatedAt.get(f.flid()))
                                    .thenComparing(FlightState::flid))
                            .limit(limit).map(FlightState::flid).toList();
                }

                @Override
                public void archive(FlightState flight, String snapshot, Instant at) {
                    var key = flight.flid() + "|" + flight.stateVersion();
                    if (state.flightHistory.containsKey(key)) {
                        throw new IllegalStateException("FLIGHT_HST already holds FLID " + flight.flid() + " version "
                                + flight.stateVersion());
                    }
                    state.flightHistory.put(key, new ArchivedFlight(flight, snapshot, at));
                }

                @Override
                public void delete(FlightId flid) {
                    state.flights.remove(flid);
                    state.flightUpdatedAt.remove(flid);
                }
            };
        }



    }

    /** The outbox of this transaction. */
    private record TxOutbox(State state) implements Notifications, Projections, ReferenceNotifications, DeadLetters,
            OutboxCleanup, OutboxQueries {

        private static boolean isPending(OutboxEntry entry) {
            return entry.status() == OutboxEntry.DeliveryStatus.PENDING;
        }

        private static boolean isDue(OutboxEntry entry, Instant now) {
            return entry.nextAttemptAt() == null || !entry.nextAttemptAt().isAfter(now);
        }

        private static OutboxEntry pendingEntry(long id, OutboxEvent event) {
            return new OutboxEntry(id, event, OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null);
        }
        @Override
        public long append(OutboxEvent notification) {
            if (notification.target() != OutboxTarget.KAFKA_MSG) {
                throw new IllegalArgumentException("append takes KAFKA:msg events; use upsertProjection for "
                        + notification.target().code());
            }
            long id = ++state.eventSeq;
            state.events.put(id, pendingEntry(id, notification));
            return id;
        }

        @Override
        public boolean upsertProjection(OutboxEvent projection) {
            if (projection.target() != OutboxTarget.KAFKA_SCHD) {
                throw new IllegalArgumentException("upsertProjection takes KAFKA:schd events; use append for "
                        + projection.target().code());
            }
            var existingId = state.projectionByFlid.get(projection.partitionKey());
            if (existingId != null) {
                var existing = state.events.get(existingId);
                if (existing.event().stateVersion() > projection.stateVersion()) {
                    return false;
                }
                state.events.remove(existingId);
            }
            long id = ++state.eventSeq;
            state.events.put(id, pendingEntry(id, projection));
            state.projectionByFlid.put(projection.partitionKey(), id);
            return true;
        }

        @Override
        public void upsertReferences(List<ReferenceEvent> events) {
            for (var event : events) {
                var existingId = state.referenceEventByKey.get(event.partitionKey());
                if (existingId != null) {
                    if (state.referenceEvents.get(existingId).event().msgId() > event.msgId()) {
                        continue;
                    }
                    state.referenceEvents.remove(existingId);
                }
                long id = ++state.eventSeq;
                state.referenceEvents.put(id, new ReferenceOutboxEntry(id, event,
                        OutboxEntry.DeliveryStatus.PENDING, 0, null, null, null));
                state.referenceEventByKey.put(event.partitionKey(), id);
            }
        }

        @Override
        public List<ReferenceOutboxEntry> dueReferences(Instant now, int limit) {
            return state.referenceEvents.values().stream()
                    .filter(e -> e.status() == OutboxEntry.DeliveryStatus.PENDING)
                    .filter(e -> e.nextAttemptAt() == null || !e.nextAttemptAt().isAfter(now))
                    .limit(limit).toList();
        }

        @Override
        public Optional<ReferenceOutboxEntry> referenceEvent(String type, String key) {
            var id = state.referenceEventByKey.get(type + ":" + key);
            return Optional.ofNullable(id == null ? null : state.referenceEvents.get(id));
        }

        @Override
        public int markReferencesSent(java.util.Collection<Long> eventIds, Instant sentAt) {
            int confirmed = 0;
            for (long id : eventIds) {
                var e = state.referenceEvents.get(id);
                if (e != null && e.status() == OutboxEntry.DeliveryStatus.PENDING) {
                    state.referenceEvents.put(id, new ReferenceOutboxEntry(id, e.event(),
                            OutboxEntry.DeliveryStatus.SENT, e.attempts(), e.nextAttemptAt(), e.lastError(),
                            sentAt));
                    confirmed++;
                }
            }
            return confirmed;
        }

        @Override
        public List<OutboxEntry> notificationsOf(FlightId flid, int limit) {
            return state.events.descendingMap().values().stream()
                    .filter(e -> e.event().target() == OutboxTarget.KAFKA_MSG
                            && e.event().partitionKey().equals(flid))
                    .limit(limit).toList();
        }

        @Override
        public List<OutboxEntry> pending(OutboxTarget target, int limit) {
            if (target == OutboxTarget.KAFKA_REF) {
                throw new IllegalArgumentException("KAFKA:ref rows are read with dueReferences");
            }
            return state.events.values().stream()
                    .filter(e -> e.event().target() == target && e.status() == OutboxEntry.DeliveryStatus.PENDING)
                    .limit(limit).toList();
        }

        @Override
        public List<OutboxEntry> dueNotifications(Instant now, int limit, long afterEventId) {
            var retrying = state.events.values().stream()
                    .filter(e -> e.event().target() == OutboxTarget.KAFKA_MSG && isPending(e))
                    .filter(e -> e.nextAttemptAt() != null)
                    .map(e -> e.event().partitionKey())
                    .collect(java.util.stream.Collectors.toSet());
            return state.events.values().stream()
                    .filter(e -> e.event().target() == OutboxTarget.KAFKA_MSG && isPending(e))
                    .filter(e -> e.nextAttemptAt() != null ? !e.nextAttemptAt().isAfter(now)
                            : !retrying.contains(e.event().partitionKey()))
                    .filter(e -> e.eventId() > afterEventId)
                    .limit(limit).toList();
        }

        @Override
        public List<OutboxEntry> dueProjections(Instant now, int limit, long afterEventId) {
            return state.events.values().stream()
                    .filter(e -> e.event().target() == OutboxTarget.KAFKA_SCHD && isPending(e) && isDue(e, now))
                    .filter(e -> e.eventId() > afterEventId)
                    .limit(limit).toList();
        }

        @Override
        public Optional<DueRetries> dueRetries(Instant now) {
            return Optional.of(new DueRetries(firstDueRetry(OutboxTarget.KAFKA_MSG, now),
                    firstDueRetry(OutboxTarget.KAFKA_SCHD, now)));
        }

        private long firstDueRetry(OutboxTarget target, Instant now) {
            return state.events.values().stream()
                    .filter(e -> e.event().target() == target && isPending(e) && e.nextAttemptAt() != null)
                    .filter(e -> !e.nextAttemptAt().isAfter(now))
                    .mapToLong(OutboxEntry::eventId).min().orElse(DueRetries.NONE);
        }

        @Override
        public boolean markSent(long eventId, Instant sentAt) {
            var entry = state.events.get(eventId);
            if (entry == null || entry.event().target() != OutboxTarget.KAFKA_MSG || !isPending(entry)) {
                return false;
            }
            state.events.put(eventId, new OutboxEntry(eventId, entry.event(), OutboxEntry.DeliveryStatus.SENT,
                    entry.attempts(), entry.nextAttemptAt(), entry.lastError(), sentAt));
            return true;
        }

        @Override
        public boolean markProjectionSent(FlightId flid, long stateVersion, Instant sentAt) {
            var id = state.projectionByFlid.get(flid);
            var entry = id == null ? null : state.events.get(id);
            if (entry == null || entry.event().stateVersion() != stateVersion || !isPending(entry)) {
                return false;
            }
            state.events.put(id, new OutboxEntry(id, entry.event(), OutboxEntry.DeliveryStatus.SENT,
                    entry.attempts(), entry.nextAttemptAt(), entry.lastError(), sentAt));
            return true;
        }

        @Override
        public boolean recordDeliveryFailure(long eventId, String error, Instant nextAttemptAt, boolean dead,
                                             Instant now) {
            var entry = state.events.get(eventId);
            var reference = state.referenceEvents.get(eventId);
            if (reference != null && reference.status() == OutboxEntry.DeliveryStatus.PENDING) {
                state.referenceEvents.put(eventId, new ReferenceOutboxEntry(eventId, reference.event(),
                        dead ? OutboxEntry.DeliveryStatus.DEAD : OutboxEntry.DeliveryStatus.PENDING,
                        reference.attempts() + 1, nextAttemptAt, TxProcStates.cut(error), null));
                return true;
            }
            if (entry == null || !isPending(entry)) {
                return false;
            }
            state.events.put(eventId, new OutboxEntry(eventId, entry.event(),
                    dead ? OutboxEntry.DeliveryStatus.DEAD : OutboxEntry.DeliveryStatus.PENDING,
                    entry.attempts() + 1, nextAttemptAt, TxProcStates.cut(error), null));
            return true;
        }

        @Override
        public int deleteSentBefore(Instant cutoff, int limit) {
            var doomed = state.events.values().stream()
                    .filter(e -> e.status() == OutboxEntry.DeliveryStatus.SENT && e.sentAt().isBefore(cutoff)
                            && e.event().createdAt().isBefore(cutoff))
                    .limit(limit).map(OutboxEntry::eventId).toList();
            doomed.forEach(id -> {
                var removed = state.events.remove(id);
                state.projectionByFlid.remove(removed.event().partitionKey(), id);
            });
            var doomedReferences = state.referenceEvents.values().stream()
                    .filter(e -> e.status() == OutboxEntry.DeliveryStatus.SENT && e.sentAt().isBefore(cutoff)
                            && e.event().createdAt().isBefore(cutoff))
                    .limit(limit - doomed.size()).map(ReferenceOutboxEntry::eventId).toList();
            doomedReferences.forEach(id -> {
                var removed = state.referenceEvents.remove(id);
                state.referenceEventByKey.remove(removed.event().partitionKey(), id);
            });
            return doomed.size() + doomedReferences.size();
        }

        @Override
        public DeliveryBacklog deliveryBacklog() {
            long pending = 0;
            long dead = 0;
            Instant oldest = null;
            for (var e : state.events.values()) {
                if (isPending(e)) {
                    pending++;
                    oldest = oldest == null || e.event().createdAt().isBefore(oldest) ? e.event().createdAt() : oldest;
                } else if (e.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    dead++;
                }
            }
            for (var e : state.referenceEvents.values()) {
                if (e.status() == OutboxEntry.DeliveryStatus.PENDING) {
                    pending++;
                    oldest = oldest == null || e.event().createdAt().isBefore(oldest) ? e.event().createdAt() : oldest;
                } else if (e.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    dead++;
                }
            }
            return new DeliveryBacklog(pending, dead, oldest);
        }

        @Override
        public List<DeadEvent> deadEvents(int limit) {
            var dead = new TreeMap<Long, DeadEvent>();
            state.events.values().stream().filter(e -> e.status() == OutboxEntry.DeliveryStatus.DEAD)
                    .forEach(e -> dead.put(e.eventId(), new DeadEvent(e.eventId(), e.event().target(),
                            e.event().partitionKey().value(), e.event().stateVersion(), e.attempts(),
                            e.lastError(), e.event().createdAt(), e.nextAttemptAt())));
            state.referenceEvents.values().stream().filter(e -> e.status() == OutboxEntry.DeliveryStatus.DEAD)
                    .forEach(e -> dead.put(e.eventId(), new DeadEvent(e.eventId(), OutboxTarget.KAFKA_REF,
                            e.event().partitionKey(), e.event().msgId(), e.attempts(), e.lastError(),
                            e.event().createdAt(), e.nextAttemptAt())));
            return dead.values().stream().limit(limit).toList();
        }

        @Override
        public List<Long> resendDead(Collection<Long> eventIds, Instant now) {
            var resent = new java.util.TreeSet<Long>();
            var before = new TreeMap<>(state.events); // as one statement: every row judged as it was
            for (long id : new java.util.TreeSet<>(eventIds)) {
                var entry = before.get(id);
                if (entry != null && entry.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    boolean behindPending = entry.event().target() == OutboxTarget.KAFKA_MSG
                            && before.headMap(id).values().stream().anyMatch(e -> isPending(e)
                            && e.event().target() == OutboxTarget.KAFKA_MSG
                            && e.event().partitionKey().equals(entry.event().partitionKey()));
                    state.events.put(id, new OutboxEntry(id, entry.event(), OutboxEntry.DeliveryStatus.PENDING,
                            0, behindPending ? null : now, entry.lastError(), null));
                    resent.add(id);
                }
                var reference = state.referenceEvents.get(id);
                if (reference != null && reference.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    state.referenceEvents.put(id, new ReferenceOutboxEntry(id, reference.event(),
                            OutboxEntry.DeliveryStatus.PENDING, 0, now, reference.lastError(), null));
                    resent.add(id);
                }
            }
            return List.copyOf(resent);
        }

        @Override
        public List<Long> purgeDead(Collection<Long> eventIds) {
            var purged = new java.util.TreeSet<Long>();
            for (long id : eventIds) {
                var entry = state.events.get(id);
                if (entry != null && entry.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    state.events.remove(id);
                    state.projectionByFlid.remove(entry.event().partitionKey(), id);
                    purged.add(id);
                }
                var reference = state.referenceEvents.get(id);
                if (reference != null && reference.status() == OutboxEntry.DeliveryStatus.DEAD) {
                    state.referenceEvents.remove(id);
                    state.referenceEventByKey.remove(reference.event().partitionKey(), id);
                    purged.add(id);
                }
            }
            return List.copyOf(purged);
        }

        @Override
        public Optional<OutboxEntry> rearmProjection(FlightId flid, Instant now) {
            var id = state.projectionByFlid.get(flid);
            var entry = id == null ? null : state.events.get(id);
            if (entry == null || isPending(entry)) {
                return Optional.empty();
            }
            var rearmed = new OutboxEntry(id, entry.event(), OutboxEntry.DeliveryStatus.PENDING, 0, now, null,
                    null);
            state.events.put(id, rearmed);
            return Optional.of(rearmed);
        }
    }

    private record TxProcStates(State state) implements MessageQueue, IdentityRegister, BackfillMarks, MessageReplays, MessageArchive, MessageQueries {

        @Override
        public boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt) {
            if (state.procs.containsKey(msgId)) {
                return false;
            }
            state.procs.put(msgId, new ProcRecord(msgId, ProcStatus.PENDING, null, 0, null, null, null, receivedAt,
                    enqueuedAt, enqueuedAt, null, null, 0, null, null));
            return true;
        }

        @Override
        public Optional<ProcRecord> find(long msgId) {
            return Optional.ofNullable(state.procs.get(msgId));
        }

        @Override
        public Optional<ProcRecord> findByIdentity(String identityKey) {
            return Optional.ofNullable(state.identities.get(identityKey)).map(state.procs::get);
        }

        @Override
        public Optional<ProcRecord> head() {
            return state.procs.values().stream().filter(r -> r.status().isOpen()).findFirst();
        }

        @Override
        public Optional<String> latestIdentityKey() {
            return state.procs.values().stream().filter(r -> r.identityKey() != null)
                    .max(java.util.Comparator.comparingLong(ProcRecord::msgId)).map(ProcRecord::identityKey);
        }

        @Override
        public List<ProcRecord> pendingRun(long watermark, int limit) {
            return state.procs.values().stream().filter(r -> r.status().isOpen())
                    .takeWhile(r -> r.status() == ProcStatus.PENDING && r.msgId() <= watermark)
                    .limit(limit).toList();
        }

        @Override
        public List<ProcRecord> withStatus(ProcStatus status, int limit) {
            return state.procs.values().stream().filter(r -> r.status() == status).limit(limit).toList();
        }

        @Override
        public java.util.OptionalLong holderOf(String identityKey) {
            var holder = state.identities.get(identityKey);
            return holder == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(holder);
        }

        @Override
        public BindAttempt bindIfUnbound(long msgId, String identityKey, Instant now) {
            var record = state.procs.get(msgId);
            if (record == null || record.identityKey() != null) {
                return BindAttempt.UNCHANGED;
            }
            if (state.identities.containsKey(identityKey)) {
                return BindAttempt.TAKEN;
            }
            state.identities.put(identityKey, msgId);
            state.procs.put(msgId, with(record, record.status(), identityKey, record.attempts(), record.nextAttemptAt(),
                    record.errorClass(), record.lastError(), now, record.backfillNextAt()));
            return BindAttempt.BOUND;
        }

        @Override
        public Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
            return IdentityBinder.bindEach(this, this, claims, now);
        }

        @Override
        public boolean finish(long msgId, Terminal terminal, Instant now) {
            var record = state.procs.get(msgId);
            if (record == null || !record.status().isOpen()) {
                return false;
            }
            state.procs.put(msgId, with(record, terminal.status(), record.identityKey(), record.attempts(),
                    record.nextAttemptAt(), terminal.errorClass(), cut(terminal.reason()), now, now));
            return true;
        }

        @Override
        public boolean recordFailure(long msgId, ErrorClass errorClass, String error, Instant nextAttemptAt, Instant now) {
            var record = state.procs.get(msgId);
            if (record == null || !record.status().isOpen()) {
                return false;
            }
            state.procs.put(msgId, with(record, ProcStatus.FAILED, record.identityKey(), record.attempts() + 1,
                    nextAttemptAt, errorClass, cut(error), now, record.backfillNextAt()));
            return true;
        }

        @Override
        public boolean exhaust(long msgId, Instant now) {
            var record = state.procs.get(msgId);
            if (record == null || record.status() != ProcStatus.FAILED) {
                return false;
            }
            state.procs.put(msgId, with(record, ProcStatus.DEAD, record.identityKey(), record.attempts(),
                    record.nextAttemptAt(), ErrorClass.EXHAUSTED, record.lastError(), now, now));
            return true;
        }

        @Override
        public Backlog backlog() {
            var counts = new java.util.EnumMap<ProcStatus, Long>(ProcStatus.class);
            Instant oldest = null;
            for (var record : state.procs.values()) {
                counts.merge(record.status(), 1L, Long::sum);
                if (record.status().isOpen() && (oldest == null || record.enqueuedAt().isBefore(oldest))) {
                    oldest = record.enqueuedAt();
                }
            }
            return new Backlog(counts.getOrDefault(ProcStatus.PENDING, 0L), counts.getOrDefault(ProcStatus.FAILED, 0L),
                    counts.getOrDefault(ProcStatus.SUCCEEDED, 0L), counts.getOrDefault(ProcStatus.SKIPPED, 0L),
                    counts.getOrDefault(ProcStatus.DEAD, 0L), oldest);
        }

        private static boolean terminal(ProcRecord r) {
            return r.status().isTerminal();
        }

        @Override
        public List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit) {
            return state.procs.values().stream()
                    .filter(r -> terminal(r) && r.backfillAt() == null && r.backfillAbandonedAt() == null)
                    .filter(r -> r.backfillNextAt() == null || !r.backfillNextAt().isAfter(now)
                            || r.enqueuedAt().isBefore(overdueBefore))
                    .sorted(java.util.Comparator.comparingInt(ProcRecord::backfillAttempts).thenComparingLong(ProcRecord::msgId))
                    .limit(limit).toList();
        }

        @Override
        public boolean backfillConfirmed(long msgId, Instant at) {
            var r = state.procs.get(msgId);
            if (r == null || !terminal(r) || r.backfillAt() != null || r.backfillAbandonedAt() != null) {
                return false;
            }
            put(backfill(r, null, at, r.backfillAttempts(), null, null, at));
            return true;
        }

        @Override
        public boolean backfillFailed(long msgId, Instant nextAt, Instant now) {
            var r = state.procs.get(msgId);
            if (r == null || !terminal(r) || r.backfillAt() != null || r.backfillAbandonedAt() != null) {
                return false;
            }
            put(backfill(r, nextAt, null, r.backfillAttempts() + 1, null, null, now));
            return true;
        }

        @Override
        public boolean backfillAbandoned(long msgId, String reason, Instant at) {
            var r = state.procs.get(msgId);
            if (r == null || !terminal(r) || r.backfillAt() != null || r.backfillAbandonedAt() != null) {
                return false;
            }
            put(backfill(r, r.backfillNextAt(), null, r.backfillAttempts(), at, reason, at));
            return true;
        }

        @Override
        public List<AbandonedMark> abandonedMarks(int limit) {
            return state.procs.values().stream()
                    .filter(r -> r.status() != ProcStatus.ARCHIVED && r.backfillAbandonedAt() != null)
                    .sorted(java.util.Comparator.comparing(ProcRecord::backfillAbandonedAt).thenComparingLong(ProcRecord::msgId))
                    .limit(limit)
                    .map(r -> {
                        var rec = state.reconciliations.get(r.msgId());
                        return new AbandonedMark(r, rec == null ? null : rec.at(), rec == null ? null : rec.by(),
                                rec == null ? null : rec.note());
                    })
                    .toList();
        }

        @Override
        public List<Long> clearAbandonment(Collection<Long> msgIds, Instant now) {
            var reopened = new ArrayList<Long>();
            for (var id : new java.util.TreeSet<>(msgIds)) {
                var r = state.procs.get(id);
                if (r != null && terminal(r) && r.backfillAbandonedAt() != null) {
                    put(backfill(r, now, null, r.backfillAttempts(), null, null, now));
                    reopened.add(id);
                }
            }
            return reopened;
        }

        @Override
        public boolean touchAbandoned(long msgId, Instant at) {
            var r = state.procs.get(msgId);
            if (r == null || !terminal(r) || r.backfillAbandonedAt() == null) {
                return false;
            }
            put(backfill(r, r.backfillNextAt(), null, r.backfillAttempts(), r.backfillAbandonedAt(),
                    r.backfillAbandonedReason(), at));
            return true;
        }

        @Override
        public void recordReconciliation(long msgId, String operator, String note, Instant at) {
            state.reconciliations.put(msgId, new Reconciliation(at, operator, note));
        }

        @Override
        public void forgetReconciliations(Collection<Long> msgIds) {
            msgIds.forEach(state.reconciliations::remove);
        }

        @Override
        public BackfillBacklog backfillBacklog() {
            long owed = 0;
            long abandoned = 0;
            long unreconciled = 0;
            for (var r : state.procs.values()) {
                if (!terminal(r)) {
                    continue;
                }
                if (r.backfillAbandonedAt() != null) {
                    abandoned++;
                    if (!state.reconciliations.containsKey(r.msgId())) {
                        unreconciled++;
                    }
                } else if (r.backfillAt() == null) {
                    owed++;
                }
            }
            return new BackfillBacklog(owed, abandoned, unreconciled);
        }

        @Override
        public List<Long> replay(Collection<Long> msgIds, java.util.Set<ErrorClass> replayable, Instant now) {
            var replayed = new ArrayList<Long>();
            for (var id : new java.util.TreeSet<>(msgIds)) {
                var r = state.procs.get(id);
                boolean failedOrDead = r != null && (r.status() == ProcStatus.FAILED || r.status() == ProcStatus.DEAD)
                        && r.errorClass() != null && replayable.contains(r.errorClass());
                boolean beforeItsFlight = r != null && r.status() == ProcStatus.SKIPPED
                        && MessageReplays.UNKNOWN_FLIGHT.equals(r.lastError());
                if (failedOrDead || beforeItsFlight) {
                    put(with(r, ProcStatus.PENDING, r.identityKey(), 0, null, null, null, now, r.backfillNextAt()));
                    replayed.add(id);
                }
            }
            return replayed;
        }

        @Override
        public List<ProcRecord> archiveCandidates(Instant settledBefore, int limit) {
            return state.procs.values().stream()
                    .filter(r -> terminal(r) && r.updatedAt().isBefore(settledBefore))
                    .filter(r -> r.backfillAt() != null
                            || (r.backfillAbandonedAt() != null && state.reconciliations.containsKey(r.msgId())))
                    .sorted(java.util.Comparator.comparing(ProcRecord::updatedAt).thenComparingLong(ProcRecord::msgId))
                    .limit(limit).toList();
        }

        @Override
        public boolean copyToHistory(ProcRecord candidate, Instant now) {
            var r = state.procs.get(candidate.msgId());
            boolean settled = r != null && (r.backfillAt() != null
                    || r.backfillAbandonedAt() != null && state.reconciliations.containsKey(r.msgId()));
            if (!asListed(r, candidate) || !terminal(r) || !settled) {
                return false;
            }
            state.processingHistory.put(r.msgId(), new ArchivedRecord(r, now));
            return true;
        }

        @Override
        public boolean reduceToShadow(ProcRecord candidate, Instant now) {
            var r = state.procs.get(candidate.msgId());
            if (!asListed(r, candidate)) {
                return false;
            }
            put(new ProcRecord(r.msgId(), ProcStatus.ARCHIVED, r.identityKey(), 0, null, null, null, null,
                    r.enqueuedAt(), now, null, null, 0, null, null));
            return true;
        }

        private static boolean asListed(ProcRecord r, ProcRecord candidate) {
            return r != null && r.status() == candidate.status() && r.updatedAt().equals(candidate.updatedAt());
        }

        @Override
        public int forgetArchivedBefore(Instant cutoff, int limit) {
            var doomed = state.procs.values().stream()
                    .filter(r -> r.status() == ProcStatus.ARCHIVED && r.updatedAt().isBefore(cutoff))
                    .limit(limit).toList();
            for (var r : doomed) {
                state.procs.remove(r.msgId());
                if (r.identityKey() != null) {
                    state.identities.remove(r.identityKey(), r.msgId());
                }
            }
            return doomed.size();
        }

        private void put(ProcRecord record) {
            state.procs.put(record.msgId(), record);
        }

        private static ProcRecord backfill(ProcRecord r, Instant nextAt, Instant at, int attempts, Instant abandonedAt,
                                           String abandonedReason, Instant updatedAt) {
            return new ProcRecord(r.msgId(), r.status(), r.identityKey(), r.attempts(), r.nextAttemptAt(), r.errorClass(),
                    r.lastError(), r.receivedAt(), r.enqueuedAt(), updatedAt, nextAt, at, attempts, abandonedAt,
                    abandonedReason);
        }

        static String cut(String text) {
            return ColumnText.fitted(text, LAST_ERROR_WIDTH);
        }

        private static ProcRecord with(ProcRecord r, ProcStatus status, String identityKey, int attempts,
                                       Instant nextAttemptAt, ErrorClass errorClass, String lastError, Instant now,
                                       Instant backfillNextAt) {
            return new ProcRecord(r.msgId(), status, identityKey, attempts, nextAttemptAt, errorClass, lastError,
                    r.receivedAt(), r.enqueuedAt(), now, backfillNextAt, r.backfillAt(), r.backfillAttempts(),
                    r.backfillAbandonedAt(), r.backfillAbandonedReason());
        }
    }

    /** {@code REF_MASTER} inside one transaction: the same upsert rules as the database stores. */
    private record TxReferenceData(State state) implements ReferenceData {

        static String rowKey(String type, String key) {
            return type + '\u0000' + key;
        }

        @Override
        public void refresh(String type, List<io.msgx.pipeline.codec.ReferenceRecord> records, long msgId, Instant now) {
            ReferenceData.requireStorable(type, records);
            for (var record : ReferenceData.lastByKey(records).values()) {
                var rowKey = rowKey(type, record.key());
                var stored = state.references.get(rowKey);
                if (stored == null || stored.msgId() <= msgId) {
                    state.references.put(rowKey, new ReferenceEntry(type, record.key(), record.document(), msgId, now));
                }
            }
        }

        @Override
        public void remove(String type, java.util.Collection<String> keys, long msgId) {
            for (var key : keys) {
                var stored = state.references.get(rowKey(type, key));
                if (stored != null && stored.msgId() <= msgId) {
                    state.references.remove(rowKey(type, key));
                }
            }
        }

        @Override
        public Map<String, Long> writers(String type) {
            var writers = new java.util.LinkedHashMap<String, Long>();
            state.references.subMap(type + '\u0000', type + '\u0001').values()
                    .forEach(entry -> writers.put(entry.key(), entry.msgId()));
            return writers;
        }

        @Override
        public Map<String, Long> countsByType() {
            var counts = new TreeMap<String, Long>();
            state.references.values().forEach(entry -> counts.merge(entry.type(), 1L, Long::sum));
            return counts;
        }

        @Override
        public Optional<ReferenceEntry> find(String type, String key) {
            return Optional.ofNullable(state.references.get(rowKey(type, key)));
        }

        @Override
        public List<ReferenceEntry> all(String type, int limit) {
            ReferenceData.requirePositive(limit);
            return state.references.subMap(type + '\u0000', type + '\u0001').values().stream().limit(limit).toList();
        }
    }

    /** {@code REQ_TRACK} inside one transaction: the same transitions and open-request rule as the database stores. */
    private record TxRequestTrack(State state) implements RequestTrack {

        @Override
        public Request register(RequestKind kind, String subject, java.time.LocalDate coverDay, String sender,
                                String seqn, Instant windowStart, Instant windowEnd, Instant now) {
            RequestTrack.requireRegistrable(kind, subject, coverDay, sender, seqn, windowStart, windowEnd, now);
            findBySeqn(seqn).ifPresent(other -> {
                throw RequestTrack.seqnInUse(seqn, other.id());
            });
            var type = kind.typeKey(subject);
            for (var r : List.copyOf(state.requests.values())) {
                if (r.status().isOpen() && r.typeKey().equals(type) && java.util.Objects.equals(r.coverDay(), coverDay)
                        && r.sender().equals(sender)) {
                    state.requests.put(r.id(), closed(r, RequestStatus.EXPIRED, now, null, null));
                }
            }
            var request = new Request(++state.requestSeq, kind, kind == RequestKind.SCHEDULE ? null : subject,
                    coverDay, sender, RequestStatus.PENDING, seqn, null, windowStart, windowEnd, now, null, null,
                    null, null);
            state.requests.put(request.id(), request);
            return request;
        }

        @Override
        public boolean markSent(long id, long outMsgId, Instant sentAt) {
            java.util.Objects.requireNonNull(sentAt, "sentAt");
            var r = state.requests.get(id);
            if (r == null || r.status() != RequestStatus.PENDING) {
                return false;
            }
            state.requests.put(id, new Request(id, r.kind(), r.subject(), r.coverDay(), r.sender(), RequestStatus.SENT,
                    r.seqn(), outMsgId, r.windowStart(), r.windowEnd(), r.createdAt(), sentAt, null, null, null));
            return true;
        }

        @Override
        public Optional<Request> find(long id) {
            return Optional.ofNullable(state.requests.get(id));
        }

        @Override
        public Optional<Request> findBySeqn(String seqn) {
            java.util.Objects.requireNonNull(seqn, "seqn");
            return state.requests.values().stream().filter(r -> seqn.equals(r.seqn())).findFirst();
        }

        @Override
        public List<Request> openOf(RequestKind kind, String subject) {
            java.util.Objects.requireNonNull(kind, "kind");
            var type = kind == RequestKind.SCHEDULE ? RequestKind.SCHEDULE_TYPE
                    : java.util.Objects.requireNonNull(subject, "subject");
            return state.requests.values().stream()
                    .filter(r -> r.status() == RequestStatus.SENT && r.typeKey().equals(type))
                    .sorted(java.util.Comparator.comparing(Request::createdAt).thenComparing(Request::id))
                    .toList();
        }

        @Override
        public List<Request> pending() {
            return state.requests.values().stream()
                    .filter(r -> r.status() == RequestStatus.PENDING)
                    .sorted(java.util.Comparator.comparing(Request::createdAt).thenComparing(Request::id))
                    .toList();
        }

        @Override
        public boolean complete(long id, long responseMsgId, MatchMode mode, Instant at) {
            java.util.Objects.requireNonNull(mode, "mode");
            java.util.Objects.requireNonNull(at, "at");
            var r = state.requests.get(id);
            if (r == null || r.status() != RequestStatus.SENT) {
                return false;
            }
            state.requests.put(id, closed(r, RequestStatus.DONE, at, responseMsgId, mode));
            return true;
        }

        @Override
        public int expireOpenBefore(Instant cutoff, Instant now) {
            java.util.Objects.requireNonNull(cutoff, "cutoff");
            java.util.Objects.requireNonNull(now, "now");
            int expired = 0;
            for (var r : List.copyOf(state.requests.values())) {
                if (r.status().isOpen() && r.createdAt().isBefore(cutoff)) {
                    state.requests.put(r.id(), closed(r, RequestStatus.EXPIRED, now, null, null));
                    expired++;
                }
            }
            return expired;
        }

        private static Request closed(Request r, RequestStatus status, Instant at, Long responseMsgId, MatchMode mode) {
            return new Request(r.id(), r.kind(), r.subject(), r.coverDay(), r.sender(), status, r.seqn(), r.outMsgId(),
                    r.windowStart(), r.windowEnd(), r.createdAt(), r.sentAt(), at, responseMsgId, mode);
        }
    }
}
