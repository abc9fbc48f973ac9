package io.msgx.domain.message;

import java.util.List;

/**
 * Several changes of one kind in one message, applied in document order as one decision (sis-format v3 §10): the
 * {@code FLOP} bodies of a message that carries more than one (each its own {@code FLID}, one {@code STYP}), or the
 * flights a {@code SCHD/DEL} package lists for deletion. A part whose flight is unknown does not stop the others; a part
 * that breaks the protocol refuses the whole message.
 *
 * @param parts         {@link FlightOperation}s of one subtype, or {@link FlightDeletion}s; at least one
 * @param declaredCount the package's {@code RECS} ({@code SCHD/DEL}); null when absent and for {@code FLOP} bodies
 */
public record FlightBatch(List<FlightMessage> parts, Integer declaredCount) implements FlightMessage {

    /** Parts without a declared count: several {@code FLOP} bodies. */
    public FlightBatch(List<FlightMessage> parts) {
        this(parts, null);
    }

    public FlightBatch {
        parts = List.copyOf(parts);
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a batch has at least one part");
        }
        var first = parts.get(0);
        for (var part : parts) {
            boolean sameKind = first instanceof FlightOperation op
                    ? part instanceof FlightOperation other && other.subtype() == op.subtype()
                    : first instanceof FlightDeletion && part instanceof FlightDeletion;
            if (!sameKind) {
                throw new IllegalArgumentException("a batch holds FLOP bodies of one subtype or deletions, not " + parts);
            }
        }
    }

    /** Whether the parts are deletions ({@code SCHD/DEL}) rather than operations. */
    public boolean deletes() {
        return parts.get(0) instanceof FlightDeletion;
    }

    /** The {@code FLID} text each part names, in document order (null where a part names none). */
    public List<String> flids() {
        return parts.stream().map(FlightBatch::flidOf).toList();
    }

    /** The {@code FLID} text the part at {@code index} names (null when it names none). */
    public String flid(int index) {
        return flidOf(parts.get(index));
    }

    private static String flidOf(FlightMessage part) {
        return part instanceof FlightOperation op ? op.flid() : ((FlightDeletion) part).flid();
    }

    @Override
    public <R> R match(Cases<R> cases) {
        return cases.batch(this);
    }
}
