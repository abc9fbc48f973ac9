package io.msgx.domain.flight;

/**
 * The identity of one flight instance: the AODB's {@code FLID}.
 *
 * <p>Identity is never inferred from a flight number, a date or a resource code. The value is kept as text
 * (trimmed) because the protocol carries it as text; ordering puts all-digit identities in numeric order
 * (shorter first, then by digits) before any other identity, which then sort by their text. That ordering is
 * what makes a {@code MAFL} projection byte-stable.
 */
public record FlightId(String value) implements Comparable<FlightId> {

    /** Widest FLID the store accepts; longer text is a protocol error, not a silent truncation. */
    public static final int MAX_LENGTH = 32;

    public FlightId {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("FLID must not be blank");
        }
        value = value.strip();
        if (value.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("FLID longer than " + MAX_LENGTH + " characters: " + value);
        }
    }

    public static FlightId of(String value) {
        return new FlightId(value);
    }

    /** True when the text is usable as a FLID; for validating a package before anything is applied. */
    public static boolean isValid(String value) {
        return value != null && !value.isBlank() && value.strip().length() <= MAX_LENGTH;
    }

    /** All digits without a leading zero (a lone {@code 0} included): ordered as a number. */
    private boolean isNumeric() {
        if (value.length() > 1 && value.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** Numeric identities first, in numeric order (shorter first, then by digits); then the others by their text. */
    @Override
    public int compareTo(FlightId other) {
        boolean numeric = isNumeric();
        if (numeric != other.isNumeric()) {
            return numeric ? -1 : 1;
        }
        if (numeric && value.length() != other.value.length()) {
            return Integer.compare(value.length(), other.value.length());
        }
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
