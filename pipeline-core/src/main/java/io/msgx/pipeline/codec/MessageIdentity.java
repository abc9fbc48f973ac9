package io.msgx.pipeline.codec;

import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * The business identity of a message: {@code SNDR|TYPE|STYP|SEQN}, and with the day boundary
 * ({@code msgx.identity.include-day-boundary}) also {@code |yyyyMMdd} of {@code DTTM}, for senders whose
 * {@code SEQN} restarts every day.
 */
public record MessageIdentity(String key) {

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuuMMdd");

    public MessageIdentity {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("a message identity must not be blank");
        }
    }

    public static MessageIdentity of(MessageMeta meta, boolean includeDayBoundary) {
        String key = meta.sender() + '|' + meta.type() + '|' + meta.subtype() + '|' + meta.sequence();
        return new MessageIdentity(includeDayBoundary ? key + '|' + DAY.format(meta.sentAt()) : key);
    }

    /**
     * The kind ({@code TYPE-STYP}) an identity key names, read back from {@code SNDR|TYPE|STYP|SEQN[|yyyyMMdd]};
     * empty when the key does not have that shape.
     */
    public static Optional<String> kindOf(String key) {
        if (key == null) {
            return Optional.empty();
        }
        var parts = key.split("\\|", -1);
        return parts.length < 4 ? Optional.empty()
                : Optional.of(MessageMeta.kind(parts[1], parts[2]));
    }

    /**
     * Why the identities a store holds were made by another algorithm than {@code includeDayBoundary} asks for, judged
     * by the shape of {@code latestKey} (four parts without the day boundary, five with it); empty when they agree or
     * the store holds none. Changing the algorithm on a store with identities would let every message already seen
     * be processed again under its new key (D-86).
     */
    public static Optional<String> algorithmChange(Optional<String> latestKey, boolean includeDayBoundary) {
        if (latestKey.isEmpty()) {
            return Optional.empty();
        }
        var parts = latestKey.get().split("\\|", -1);
        boolean stored = parts.length == 5 && parts[4].matches("\\d{8}");
        if (stored == includeDayBoundary) {
            return Optional.empty();
        }
        return Optional.of("the store holds identities made " + (stored ? "with" : "without") + " the day boundary (the"
                + " latest: " + latestKey.get() + "), but msgx.identity.include-day-boundary=" + includeDayBoundary
                + ": every message already seen would be processed again under its new identity. Keep the setting the"
                + " store was made with, or set msgx.identity.accept-algorithm-change=true for the start that changes it");
    }

    @Override
    public String toString() {
        return key;
    }
}
