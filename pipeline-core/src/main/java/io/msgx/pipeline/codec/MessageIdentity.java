package io.msgx.pipeline.codec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The business identity of a message: {@code SNDR|TYPE|STYP|SEQN}, and with the day boundary
 * ({@code msgx.identity.include-day-boundary}) also {@code |yyyyMMdd} of {@code DTTM}, for senders whose
 * {@code SEQN} restarts every day.
 *
 * <p>A key longer than {@code IDENTITY_KEY}'s {@value #WIDTH} characters (never seen in real traffic, where each part
 * is a short code or number) has each part longer than {@value #PART_WIDTH} shortened to its first 16 characters,
 * {@code ~} and the start of its SHA-256 in hex: it then fits, and two different parts still make two keys. Every key
 * that fits is kept as it is, as before (D-102).
 */
public record MessageIdentity(String key) {

    /** The width of {@code IDENTITY_KEY} in both schemas. */
    static final int WIDTH = 200;
    /** The longest part kept as it is in a key too long: four of them and the day fit {@link #WIDTH}. */
    static final int PART_WIDTH = 40;
    private static final int KEPT = 16;
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuuMMdd");

    public MessageIdentity {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException("a message identity must not be blank");
        }
    }

    public static MessageIdentity of(MessageMeta meta, boolean includeDayBoundary) {
        var day = includeDayBoundary ? "|" + DAY.format(meta.sentAt()) : "";
        var key = meta.sender() + '|' + meta.type() + '|' + meta.subtype() + '|' + meta.sequence() + day;
        if (key.codePointCount(0, key.length()) <= WIDTH) { // the columns count characters, not UTF-16 units
            return new MessageIdentity(key);
        }
        return new MessageIdentity(fitted(meta.sender()) + '|' + fitted(meta.type()) + '|' + fitted(meta.subtype())
                + '|' + fitted(meta.sequence()) + day);
    }

    /** {@code part} as it is when it fits {@value #PART_WIDTH}, else its start, {@code ~} and its digest's start. */
    private static String fitted(String part) {
        if (part == null || part.codePointCount(0, part.length()) <= PART_WIDTH) {
            return part;
        }
        try {
            var digest = MessageDigest.getInstance("SHA-256").digest(part.getBytes(StandardCharsets.UTF_8));
            int kept = Character.isHighSurrogate(part.charAt(KEPT - 1)) ? KEPT - 1 : KEPT;
            return part.substring(0, kept) + '~' + HexFormat.of().formatHex(digest).substring(0, PART_WIDTH - kept - 1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
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
