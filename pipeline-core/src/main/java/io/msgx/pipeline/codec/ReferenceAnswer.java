package io.msgx.pipeline.codec;

import java.util.List;
import java.util.Objects;

/**
 * A reference message ({@code TYPE=<reference type>}, {@code STYP} one of {@link ReferenceAction}), sis-format §6:
 * the records of one reference type, in document order.
 *
 * @param declaredCount the {@code RECS} the message declared, null when it has none; checked against the records
 *                      by the processor (a mismatch is a protocol error and nothing is applied)
 */
public record ReferenceAnswer(String referenceType, ReferenceAction action, Integer declaredCount,
                              List<ReferenceRecord> records) {

    public ReferenceAnswer {
        Objects.requireNonNull(referenceType, "referenceType");
        Objects.requireNonNull(action, "action");
        records = List.copyOf(records);
    }

    /** An answer to our request ({@code RESP}) without {@code RECS}. */
    public ReferenceAnswer(String referenceType, List<ReferenceRecord> records) {
        this(referenceType, ReferenceAction.RESP, null, records);
    }

    /** A message of {@code action} without {@code RECS}. */
    public ReferenceAnswer(String referenceType, ReferenceAction action, List<ReferenceRecord> records) {
        this(referenceType, action, null, records);
    }
}
