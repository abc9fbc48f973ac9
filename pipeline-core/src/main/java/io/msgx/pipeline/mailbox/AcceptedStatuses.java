package io.msgx.pipeline.mailbox;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The mailbox statuses that make a row a message ({@code msgx.mailbox.accepted-statuses}, sis-format §10, D-110): a row
 * whose {@code CMINMSGS_STATUS} is not one of them is not processed but ends {@code SKIPPED(status:<value>)} in its FIFO
 * place.
 *
 * <ul>
 *   <li>A {@code NULL} status is always accepted (sis-format §10), so no entry names it.</li>
 *   <li>Matching ignores case and the blanks around a value, on both sides: {@code valid}, {@code VALID} and
 *       {@code 'VALID  '} (a {@code CHAR} column pads) are one status. A status that is blank but not {@code NULL} is a
 *       value of its own, accepted only when the check is off.</li>
 *   <li>An empty set turns the check off: every row is a message, whatever its status.</li>
 * </ul>
 */
public final class AcceptedStatuses {

    public static final String KEY = "msgx.mailbox.accepted-statuses";

    /** The default set: the one status sis-format §1 gives the column by default. */
    public static final List<String> DEFAULT = List.of("VALID");

    /** The reason's prefix of a row skipped for its status: {@code status:INVALID}. */
    public static final String SKIP_PREFIX = "status:";

    private final Set<String> accepted;

    private AcceptedStatuses(Set<String> accepted) {
        this.accepted = Set.copyOf(accepted);
    }

    /**
     * The statuses {@code texts} name; an empty list turns the check off.
     *
     * @throws IllegalArgumentException naming {@link #KEY} when an entry is blank, {@code NULL} (always accepted) or
     *                                  {@code *} (say "every status" with an empty value)
     */
    public static AcceptedStatuses of(List<String> texts) {
        var accepted = new LinkedHashSet<String>();
        for (var text : texts) {
            var status = normal(text);
            if (status.isEmpty()) {
                throw new IllegalArgumentException(KEY + ": an entry is blank; give the statuses that make a row a "
                        + "message, comma-separated (e.g. VALID), or an empty value to accept every status");
            }
            if (status.equals("NULL")) {
                throw new IllegalArgumentException(KEY + ": entry '" + text.strip() + "' is not needed: a NULL status is "
                        + "always accepted (sis-format §10); remove it");
            }
            if (status.equals("*")) {
                throw new IllegalArgumentException(KEY + ": entry '*' is not a status; to accept every status (the check "
                        + "off) set the key to an empty value");
            }
            accepted.add(status);
        }
        return new AcceptedStatuses(accepted);
    }

    /** {@link #DEFAULT}: only {@code VALID} (and {@code NULL}) rows are messages. */
    public static AcceptedStatuses defaults() {
        return of(DEFAULT);
    }

    /** The check off: every row is a message. */
    public static AcceptedStatuses any() {
        return of(List.of());
    }

    /** Whether the check is off (the set is empty): no row is skipped for its status. */
    public boolean off() {
        return accepted.isEmpty();
    }

    /** Whether a row with {@code status} (null for {@code NULL}) is a message. */
    public boolean accepts(String status) {
        return status == null || off() || accepted.contains(normal(status));
    }

    /**
     * The reason a row with {@code status} is skipped, {@code status:INVALID} (the value trimmed; {@code status:''}
     * for a blank one); empty when the status is accepted.
     */
    public Optional<String> skipReason(String status) {
        if (accepts(status)) {
            return Optional.empty();
        }
        var shown = status.strip();
        return Optional.of(SKIP_PREFIX + (shown.isEmpty() ? "''" : shown));
    }

    /** The accepted statuses, upper case, sorted, as the configuration would list them; empty when the check is off. */
    public List<String> statuses() {
        return accepted.stream().sorted().toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AcceptedStatuses that && accepted.equals(that.accepted);
    }

    @Override
    public int hashCode() {
        return accepted.hashCode();
    }

    @Override
    public String toString() {
        return off() ? "any status" : String.join(",", statuses());
    }

    private static String normal(String status) {
        return status == null ? "" : status.strip().toUpperCase(Locale.ROOT);
    }
}
