package io.msgx.pipeline.request;

import java.util.Collection;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Our request {@code SEQN} (sis-format §6, §10 "Requests"): a bounded number the AODB side can store, {@code width}
 * digits, zero-padded, from 1 to 10<sup>width</sup> − 1, cycling back to 1 after the largest; never one that an open
 * request still carries (D-111).
 *
 * <p>The next number is derived from the store, not from a counter of this process: the {@code SEQN} of the request
 * registered last, plus one, skipping the numbers of the open requests. So it survives restarts, and the CLI's
 * {@code request} and the runner (two processes, serialised by the store's lock while they register and write a
 * request) continue one cycle. A last {@code SEQN} that is not a number of this width (a millisecond {@code SEQN} of
 * a version before the cycle, a width since reduced) starts the cycle again at 1.
 *
 * @param width the number of digits ({@code msgx.requests.seqn-width}, default {@value #DEFAULT_WIDTH})
 */
public record SeqnCycle(int width) {

    public static final int DEFAULT_WIDTH = 6;
    /** The widest cycle: 10<sup>18</sup> − 1 is still a {@code long}. */
    public static final int MAX_WIDTH = 18;

    public SeqnCycle {
        if (width < 1 || width > MAX_WIDTH) {
            throw new IllegalArgumentException("msgx.requests.seqn-width must be 1 to " + MAX_WIDTH + " digits, got "
                    + width);
        }
    }

    public static SeqnCycle defaults() {
        return new SeqnCycle(DEFAULT_WIDTH);
    }

    /** The largest number of the cycle, 10<sup>width</sup> − 1. */
    public long max() {
        long max = 1;
        for (int i = 0; i < width; i++) {
            max *= 10;
        }
        return max - 1;
    }

    /** {@code number} as a {@code SEQN}: zero-padded to the width. */
    public String format(long number) {
        if (number < 1 || number > max()) {
            throw new IllegalArgumentException("a SEQN of " + width + " digits is 1 to " + max() + ", got " + number);
        }
        var digits = Long.toString(number);
        return "0".repeat(width - digits.length()) + digits;
    }

    /**
     * The {@code SEQN} after {@code last} (the one of the request registered last; empty when there is none) that no
     * request of {@code open} carries.
     *
     * @throws IllegalStateException when every number of the cycle is held by an open request
     */
    public String next(Optional<String> last, Collection<String> open) {
        var held = new HashSet<Long>();
        for (var seqn : open) {
            number(seqn).ifPresent(held::add);
        }
        long max = max();
        long candidate = last.flatMap(s -> boxed(number(s))).filter(n -> n <= max).map(n -> n % max + 1).orElse(1L);
        for (long tried = 0; tried < max; tried++) {
            if (!held.contains(candidate)) {
                return format(candidate);
            }
            candidate = candidate % max + 1;
        }
        throw new IllegalStateException("every SEQN of " + width + " digits (1 to " + max + ") is carried by an open "
                + "request: widen msgx.requests.seqn-width, or wait until requests are answered or expire");
    }

    /**
     * An answer's {@code RQSN} as we wrote the {@code SEQN}: an AODB that keeps the number as a number may echo
     * {@code 42} for our {@code 000042}; a number of the cycle is padded to the width, anything else is kept as sent.
     */
    public String canonical(String rqsn) {
        var n = number(rqsn);
        return n.isPresent() && n.getAsLong() <= max() ? format(n.getAsLong()) : rqsn;
    }

    /** {@code seqn} as a positive number; empty when it is not all digits or does not fit a long. */
    private static OptionalLong number(String seqn) {
        if (seqn == null || seqn.isEmpty() || seqn.length() > 19 || !seqn.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        try {
            long n = Long.parseLong(seqn);
            return n > 0 ? OptionalLong.of(n) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Optional<Long> boxed(OptionalLong n) {
        return n.isPresent() ? Optional.of(n.getAsLong()) : Optional.empty();
    }
}
