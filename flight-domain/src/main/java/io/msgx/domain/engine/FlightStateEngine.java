package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.MaflProjection;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.ScheduleMessage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Decides what one message does to flight state. Pure: given the current states and a decoded message it
 * returns the next full states and the events to emit, as values; the caller persists them.
 *
 * <p>Every message kind has a handler that proposes next contents. The engine then does what is common to
 * all of them: it keeps only the flights whose content really changed, adds every master whose {@code MAFL}
 * moved because a child appeared, left, moved or was renamed (INV-22), advances each of those flights'
 * {@code STATE_VERSION} by exactly one (a flight new to the current state starts at 1, or above the version its FLID
 * had before it was archived), and builds one event per flight. A message that changes nothing
 * changes no version.
 *
 * <p>Reading: {@link #flightsNamedBy} then {@link #mastersTouchedBy} say which flights, and which masters'
 * child sets, a {@link FlightSnapshot} must hold, so a store can load them in two batched reads.
 */
public final class FlightStateEngine {

    /** Codes naming the parts of the state that are not protocol fields, as they appear in events. */
    public static final String STATE = "STATE";
    public static final String OPERATION_DAY = "OPERATION_DAY";
    public static final String MAFL = "MAFL";

    /** Which no-op a batch that changed nothing reports, first to last (see {@link #applyBatch}). */
    private static final List<Decision.NoChangeReason> BATCH_NO_OP_ORDER = List.of(
            Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT, Decision.NoChangeReason.OPERATION_ON_DELETED_FLIGHT,
            Decision.NoChangeReason.DELETE_OF_UNKNOWN_FLIGHT, Decision.NoChangeReason.ALREADY_DELETED,
            Decision.NoChangeReason.UNCHANGED);

    private final ScheduleHandler schedule;
    private final AdftHandler adft;
    private final FlopHandler flop;
    private final FdelHandler fdel = new FdelHandler();
    private final EngineSettings settings;

    public FlightStateEngine(EngineSettings settings) {
        Objects.requireNonNull(settings, "settings");
        this.settings = settings;
        this.flop = new FlopHandler(settings::listMode);
        this.schedule = new ScheduleHandler(settings.operationDayRule(), settings.scheduleAbsentFields());
        this.adft = new AdftHandler(settings.operationDayRule());
    }

    /** The rules this engine decides by. */
    public EngineSettings settings() {
        return settings;
    }

    /**
     * How the list a {@code FLOP} (or a batch of them) changes lands, for the message's recorded outcome
     * ({@code DELY merged by CODE}, {@code GTDT replaced}); empty for any other message.
     */
    public Optional<String> listModeOf(FlightMessage message) {
        return message.match(LIST_CHANGE).map(list -> list.code() + " " + settings.listMode(list).describe(list));
    }

    /** The FLIDs a message names (those with text usable as a FLID); the first read of a decision. */
    public Set<FlightId> flightsNamedBy(FlightMessage message) {
        return flidTexts(message)
                .filter(FlightId::isValid)
                .map(FlightId::of)
                .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    }

    /**
     * The masters whose complete child sets the decision may need, given the named flights as read: each
     * named flight itself, the master it names now, and the master the message would make it name. The
     * second read loads these flights and every flight whose {@code MAID} names one of them.
     */
    public Set<FlightId> mastersTouchedBy(FlightMessage message, FlightSnapshot named) {
        var masters = new TreeSet<FlightId>();
        for (var flid : flightsNamedBy(message)) {
            masters.add(flid);
            named.find(flid).flatMap(FlightState::masterId).ifPresent(masters::add);
        }
        patches(message).forEach(patch -> {
            if (patch.fields().get(FlightField.MAID) instanceof FieldChange.SetTo maid && FlightId.isValid(maid.value())) {
                masters.add(FlightId.of(maid.value()));
            }
        });
        return masters;
    }

    /**
     * Decide what {@code message}, mailbox ID {@code msgId}, does to the flights in {@code current}.
     *
     * @throws IllegalStateException when {@code current} lacks a flight or child set the decision needs
     */
    public Decision apply(FlightSnapshot current, FlightMessage message, long msgId) {
        if (message instanceof FlightBatch batch) {
            return applyBatch(current, batch, msgId);
        }
        var result = handle(current, message, msgId);
        if (result instanceof HandlerResult.Final done) {
            return done.decision();
        }
        return version(current, ((HandlerResult.Proposed) result).next(), msgId);
    }

    /** The handler's answer for a message that is not a batch, or for one part of a batch. */
    private HandlerResult handle(FlightSnapshot current, FlightMessage message, long msgId) {
        return message.match(new FlightMessage.Cases<>() {
            @Override
            public HandlerResult schedule(ScheduleMessage s) {
                return s.kind().isPackage() ? schedule.handle(s, current, msgId) : adft.handle(s, current, msgId);
            }

            @Override
            public HandlerResult operation(FlightOperation operation) {
                return flop.handle(operation, current, msgId);
            }

            @Override
            public HandlerResult deletion(FlightDeletion deletion) {
                return fdel.handle(deletion, current, msgId);
            }

            @Override
            public HandlerResult batch(FlightBatch batch) {
                throw new IllegalArgumentException("a batch is decided part by part (applyBatch), and no batch is a "
                        + "part of another: " + batch);
            }
        });
    }

    /**
     * A batch: each part decided in document order on the flights as the parts before it left them, then versioned as
     * one decision (a flight two parts change gets one version). A rejected part rejects the whole message; a part that
     * changes nothing is passed over and named. When no part changed anything, the decision is the no-op of the part
     * that matters most to an operator: an operation on an unknown flight first (the message can be replayed once the
     * flight exists), then one on a deleted flight, then the deletions' idempotent no-ops.
     */
    private Decision applyBatch(FlightSnapshot current, FlightBatch batch, long msgId) {
        var parts = batch.parts();
        if (batch.declaredCount() != null && batch.declaredCount() != parts.size()) {
            return new Decision.Rejected("SCHD DEL declares RECS=" + batch.declaredCount() + " but lists " + parts.size()
                    + " flight(s)");
        }
        var proposed = new LinkedHashMap<FlightId, FlightState>();
        var passedOver = new ArrayList<Decision.PassedOver>();
        var view = current;
        for (int i = 0; i < parts.size(); i++) {
            var result = handle(view, parts.get(i), msgId);
            if (result instanceof HandlerResult.Proposed next) {
                proposed.putAll(next.next());
                view = current.overlaidWith(proposed);
                continue;
            }
            var decision = ((HandlerResult.Final) result).decision();
            if (decision instanceof Decision.Rejected rejected) {
                return new Decision.Rejected("body #" + (i + 1) + " of " + parts.size() + ": " + rejected.reason());
            }
            passedOver.add(new Decision.PassedOver(batch.flid(i), ((Decision.NoChange) decision).reason()));
        }
        var decision = proposed.isEmpty() ? null : version(current, proposed, msgId);
        if (decision instanceof Decision.Applied applied) {
            return new Decision.Applied(applied.changes(), passedOver);
        }
        var reason = passedOver.stream().map(Decision.PassedOver::reason).min(Comparator.comparingInt(BATCH_NO_OP_ORDER::indexOf))
                .orElse(Decision.NoChangeReason.UNCHANGED);
        return new Decision.NoChange(reason, (batch.deletes() ? "deletion of " : "FLOP bodies for ") + parts.size()
                + " flight(s), none changed" + (passedOver.isEmpty() ? "" : ": " + passedOver.stream()
                .map(part -> part.flid() + " " + part.reason()).collect(Collectors.joining(", "))));
    }

    private Decision version(FlightSnapshot current, Map<FlightId, FlightState> proposed, long msgId) {
        var contentChanged = new TreeSet<FlightId>();
        proposed.forEach((flid, next) -> {
            var before = current.find(flid);
            if (before.isEmpty() || !before.get().sameContentAs(next)) {
                contentChanged.add(flid);
            }
        });

        var after = new HashMap<FlightId, FlightState>();
        current.states().forEach(s -> after.put(s.flid(), s));
        contentChanged.forEach(flid -> after.put(flid, proposed.get(flid)));

        var masters = new TreeSet<FlightId>();
        for (var flid : contentChanged) {
            masters.add(flid);
            current.find(flid).flatMap(FlightState::masterId).ifPresent(masters::add);
            after.get(flid).masterId().ifPresent(masters::add);
        }
        // Each master's children, once, so a large package does not scan every flight for every master.
        var childrenAfter = childrenByMaster(after.values());
        var childrenBefore = childrenByMaster(current.states());
        var maflBefore = new HashMap<FlightId, List<MaflEntry>>();
        var maflAfter = new HashMap<FlightId, List<MaflEntry>>();
        var changed = new TreeSet<>(contentChanged);
        for (var master : masters) {
            var masterAfter = Optional.ofNullable(after.get(master)).filter(FlightStateEngine::publishesMafl);
            if (masterAfter.isEmpty()) {
                continue;
            }
            var projected = projection(current, master, childrenAfter.getOrDefault(master, List.of()));
            maflAfter.put(master, projected);
            var masterBefore = current.find(master).filter(FlightStateEngine::publishesMafl);
            if (masterBefore.isPresent()) {
                var before = projection(current, master, childrenBefore.getOrDefault(master, List.of()));
                maflBefore.put(master, before);
                if (!before.equals(projected)) {
                    changed.add(master);
                }
            }
        }
        if (changed.isEmpty()) {
            return new Decision.NoChange(Decision.NoChangeReason.UNCHANGED,
                    "every flight already holds what the message carries");
        }

        var changes = new ArrayList<FlightChange>();
        for (var flid : changed) {
            var before = current.find(flid).orElse(null);
            var next = before == null ? firstVersion(current, after.get(flid))
                    : after.get(flid).withVersionAfter(before, msgId);
            var mafl = publishesMafl(next) ? maflAfter.get(flid) : null;
            var beforeMafl = before != null && publishesMafl(before)
                    ? maflBefore.computeIfAbsent(flid, m -> projection(current, m, childrenBefore.getOrDefault(m, List.of())))
                    : null;
            changes.add(new FlightChange(before, next, mafl, event(before, next, beforeMafl, mafl)));
        }
        return new Decision.Applied(changes);
    }

    /** A flight new to the current state: version 1, or above the version its FLID had before its archive (D-103). */
    private static FlightState firstVersion(FlightSnapshot current, FlightState created) {
        return current.formerVersion(created.flid()).map(created::continuingAfter).orElse(created);
    }

    private static Map<FlightId, List<FlightState>> childrenByMaster(Collection<FlightState> states) {
        var children = new HashMap<FlightId, List<FlightState>>();
        for (var state : states) {
            state.masterId().ifPresent(master -> children.computeIfAbsent(master, m -> new ArrayList<>()).add(state));
        }
        return children;
    }

    private static boolean publishesMafl(FlightState flight) {
        return flight.isActive() && flight.carriesMafl();
    }

    private static List<MaflEntry> projection(FlightSnapshot current, FlightId master, Collection<FlightState> states) {
        current.requireChildSet(master);
        return MaflProjection.of(master, states);
    }

    private static FlightEvent event(FlightState before, FlightState after, List<MaflEntry> maflBefore,
                                     List<MaflEntry> maflAfter) {
        var changed = new ArrayList<String>();
        for (var field : FlightField.values()) {
            if (!Objects.equals(before == null ? null : before.fields().valueOf(field), after.fields().valueOf(field))) {
                changed.add(field.code());
            }
        }
        for (var list : FlightList.values()) {
            if (!(before == null ? List.of() : before.lists().get(list)).equals(after.lists().get(list))) {
                changed.add(list.code());
            }
        }
        if (before == null || before.status() != after.status()) {
            changed.add(STATE);
        }
        if (!Objects.equals(before == null ? null : before.operationDay(), after.operationDay())) {
            changed.add(OPERATION_DAY);
        }
        if (!Objects.equals(maflBefore == null ? List.of() : maflBefore, maflAfter == null ? List.of() : maflAfter)) {
            changed.add(MAFL);
        }
        var type = after.status() == FlightStatus.DELETED ? ChangeType.DELETE : ChangeType.UPSERT;
        return new FlightEvent(after.flid(), after.stateVersion(), type, changed);
    }

    private static Stream<String> flidTexts(FlightMessage message) {
        return message.match(FLID_TEXTS);
    }

    private static Stream<FlightPatch> patches(FlightMessage message) {
        return message.match(PATCHES);
    }

    /** The {@code FLID} texts a message names, in document order. */
    private static final FlightMessage.Cases<Stream<String>> FLID_TEXTS = new FlightMessage.Cases<>() {
        @Override
        public Stream<String> schedule(ScheduleMessage schedule) {
            return schedule.records().stream().map(r -> r.flid());
        }

        @Override
        public Stream<String> operation(FlightOperation operation) {
            return Stream.of(operation.flid());
        }

        @Override
        public Stream<String> deletion(FlightDeletion deletion) {
            return Stream.of(deletion.flid());
        }

        @Override
        public Stream<String> batch(FlightBatch batch) {
            return batch.flids().stream();
        }
    };

    /** The patches a message carries (a deletion carries none). */
    private static final FlightMessage.Cases<Stream<FlightPatch>> PATCHES = new FlightMessage.Cases<>() {
        @Override
        public Stream<FlightPatch> schedule(ScheduleMessage schedule) {
            return schedule.records().stream().map(r -> r.patch());
        }

        @Override
        public Stream<FlightPatch> operation(FlightOperation operation) {
            return Stream.of(operation.patch());
        }

        @Override
        public Stream<FlightPatch> deletion(FlightDeletion deletion) {
            return Stream.empty();
        }

        @Override
        public Stream<FlightPatch> batch(FlightBatch batch) {
            return batch.parts().stream().flatMap(FlightStateEngine::patches);
        }
    };

    /** The list a message replaces: a list FLOP's, or a batch of them (one subtype); empty for any other message. */
    private static final FlightMessage.Cases<Optional<FlightList>> LIST_CHANGE = new FlightMessage.Cases<>() {
        @Override
        public Optional<FlightList> schedule(ScheduleMessage schedule) {
            return Optional.empty();
        }

        @Override
        public Optional<FlightList> operation(FlightOperation operation) {
            return operation.subtype().list();
        }

        @Override
        public Optional<FlightList> deletion(FlightDeletion deletion) {
            return Optional.empty();
        }

        @Override
        public Optional<FlightList> batch(FlightBatch batch) {
            return batch.parts().get(0).match(this);
        }
    };
}
