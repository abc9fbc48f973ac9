package io.msgx.pipeline.pump;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightMessage;
import io.msgx.pipeline.port.MessageReplays;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The recorded outcome of a batch that changed some flights and passed over others (sis-format v3 §10, decision
 * D-118): {@code applied: 2 flight(s) changed; no-match:unknown-flight 1002 1003; already-deleted 1004}. The part after
 * {@link MessageReplays#UNKNOWN_FLIGHTS_OF_A_BATCH} names the operations whose flight did not exist: a replay takes the message
 * back and applies only those, once the flights exist, so the bodies already applied are never applied twice.
 */
final class BatchOutcome {

    private static final String UNKNOWN = MessageReplays.UNKNOWN_FLIGHTS_OF_A_BATCH;

    private BatchOutcome() {
    }

    /** The outcome text of {@code applied}: how many flights changed, then each kind of part passed over, with FLIDs. */
    static String describe(Decision.Applied applied) {
        var text = new StringBuilder("applied: ").append(applied.changes().size()).append(" flight(s) changed");
        // The FLIDs a replay owes first: a long outcome is cut at the column's width from its end.
        var byReason = new TreeMap<Decision.NoChangeReason, List<String>>(Comparator
                .comparing((Decision.NoChangeReason reason) -> reason != Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT)
                .thenComparing(Comparator.naturalOrder()));
        applied.passedOver().forEach(part -> byReason.computeIfAbsent(part.reason(), r -> new ArrayList<>())
                .add(part.flid() == null ? "(no FLID)" : part.flid()));
        for (Map.Entry<Decision.NoChangeReason, List<String>> entry : byReason.entrySet()) {
            text.append("; ").append(name(entry.getKey())).append(' ').append(String.join(" ", entry.getValue()));
        }
        return text.toString();
    }

    /** The FLIDs whose operations a replay of a message that ended with {@code reason} must apply; empty: all of them. */
    static Set<String> owedFlights(String reason) {
        if (reason == null) {
            return Set.of();
        }
        int at = reason.indexOf(UNKNOWN);
        if (at < 0) {
            return Set.of();
        }
        String rest = reason.substring(at + UNKNOWN.length());
        int end = rest.indexOf(';');
        return Arrays.stream((end < 0 ? rest : rest.substring(0, end)).split(" "))
                .filter(flid -> !flid.isBlank()).collect(Collectors.toUnmodifiableSet());
    }

    /** {@code message} reduced to the parts that name {@code flids}; the message itself when it is no batch or all owed. */
    static FlightMessage owedParts(FlightMessage message, Set<String> flids) {
        if (flids.isEmpty() || !(message instanceof FlightBatch batch)) {
            return message;
        }
        var owed = new ArrayList<FlightMessage>();
        for (int i = 0; i < batch.parts().size(); i++) {
            String flid = batch.flid(i);
            if (flid != null && flids.contains(flid.trim())) {
                owed.add(batch.parts().get(i));
            }
        }
        return owed.isEmpty() ? message : new FlightBatch(owed);
    }

    /** How an outcome names a no-op: {@code unchanged}, {@code already-deleted}, {@code no-match:unknown-flight}, ... */
    static String name(Decision.NoChangeReason reason) {
        return switch (reason) {
            case UNCHANGED -> "unchanged";
            case ALREADY_DELETED -> "already-deleted";
            case DELETE_OF_UNKNOWN_FLIGHT -> "unknown-flight";
            case OPERATION_ON_UNKNOWN_FLIGHT -> MessageReplays.UNKNOWN_FLIGHT;
            case OPERATION_ON_DELETED_FLIGHT -> "no-match:deleted-flight";
        };
    }
}
