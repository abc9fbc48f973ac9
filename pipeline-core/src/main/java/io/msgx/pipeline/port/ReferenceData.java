package io.msgx.pipeline.port;

import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.record.ReferenceEntry;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code REF_MASTER}: reference data (gates, stands, airlines, ...) by type and key, as the AODB last answered it
 * (sis-format §6). Writes happen inside the business transaction ({@link PipelineTransaction#referenceData()});
 * reads for other services run auto-committed ({@link PipelineStore#referenceData()}).
 *
 * <p><b>Refresh is an upsert by key.</b> A record is written whole: its document becomes exactly the message's
 * (D-58). Records of other keys are not touched; removing them is {@link #remove}'s ({@code DEL}, and a
 * {@code DNLD} when {@code msgx.reference.dnld-removes-absent=true}, D-59). A record last written by a
 * <em>later</em> message ({@code MSG_ID} greater than the writing one, e.g. when an old message is replayed) is
 * neither overwritten nor removed, so a replay never brings back older data.
 */
public interface ReferenceData {

    /** The width of {@code REF_MASTER.RTYPE}. */
    int MAX_TYPE_LENGTH = 16;

    /** The width of {@code REF_MASTER.RKEY}. */
    int MAX_KEY_LENGTH = 64;

    /**
     * Upsert every record of one answer of {@code type}, written by message {@code msgId} at {@code now}. Within
     * one answer a key given twice keeps its last record. Records of other keys are not touched.
     *
     * @throws IllegalArgumentException when the type or a key is longer than the column
     *                                  ({@link #MAX_TYPE_LENGTH}, {@link #MAX_KEY_LENGTH}); check with
     *                                  {@link #problemWith} first
     */
    void refresh(String type, List<ReferenceRecord> records, long msgId, Instant now);

    /**
     * Remove the records of {@code type} with these keys, on behalf of message {@code msgId}, except a record last
     * written by a later message. A key with no record is no error (a {@code DEL} is idempotent).
     */
    void remove(String type, Collection<String> keys, long msgId);

    /**
     * Every key of {@code type} with the {@code MSG_ID} of the message that last wrote it (0 when unknown): what the
     * reference processor needs to decide, before writing, which records change (for the outbox) and which keys a
     * {@code DNLD} did not carry.
     */
    Map<String, Long> writers(String type);

    /** The record of {@code type} with {@code key}; type and key are matched exactly (case-sensitive). */
    Optional<ReferenceEntry> find(String type, String key);

    /** The records of {@code type} ordered by key (code-point order), at most {@code limit} (at least 1). */
    List<ReferenceEntry> all(String type, int limit);

    /** How many records each type holds, by type in code-point order; for operators. */
    Map<String, Long> countsByType();

    /** Why {@code type} and {@code records} cannot be stored, or empty when they can. */
    static Optional<String> problemWith(String type, List<ReferenceRecord> records) {
        if (type == null || type.isBlank() || type.length() > MAX_TYPE_LENGTH) {
            return Optional.of("reference type '" + type + "' must be 1 to " + MAX_TYPE_LENGTH + " characters");
        }
        return records.stream().map(ReferenceRecord::key).filter(key -> key.length() > MAX_KEY_LENGTH).findFirst()
                .map(key -> type + " key '" + key + "' is longer than " + MAX_KEY_LENGTH + " characters");
    }

    /** The records of one answer by key, a key given twice keeping its last record, in first-seen order. */
    static Map<String, ReferenceRecord> lastByKey(List<ReferenceRecord> records) {
        var byKey = new LinkedHashMap<String, ReferenceRecord>();
        records.forEach(record -> byKey.put(record.key(), record));
        return byKey;
    }

    /** Refuses what {@link #refresh} refuses; for the implementations. */
    static void requireStorable(String type, List<ReferenceRecord> records) {
        problemWith(type, records).ifPresent(problem -> {
            throw new IllegalArgumentException(problem + ": REF_MASTER cannot store it");
        });
    }

    /** Refuses a limit below 1; for the implementations. */
    static void requirePositive(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
    }
}
