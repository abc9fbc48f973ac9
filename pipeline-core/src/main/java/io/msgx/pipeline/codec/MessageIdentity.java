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

    @Override
    public String toString() {
        return key;
    }
}
