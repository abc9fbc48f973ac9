package io.msgx.pipeline.codec;

import java.util.List;
import java.util.Objects;

/**
 * A reference data answer ({@code TYPE=<reference type>}, {@code STYP=RESP}), sis-format §6: the records of
 * one reference type, in document order.
 */
public record ReferenceAnswer(String referenceType, List<ReferenceRecord> records) {

    public ReferenceAnswer {
        Objects.requireNonNull(referenceType, "referenceType");
        records = List.copyOf(records);
    }
}
