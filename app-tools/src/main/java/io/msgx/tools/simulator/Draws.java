package io.msgx.tools.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** The simulator's random draws, all from a seeded {@link SplittableRandom}. */
final class Draws {

    private Draws() {
    }

    /** How many of {@code base} a share asks for: none for a zero share, else at least one (and at most all). */
    static int quota(double share, int base) {
        if (share <= 0.0 || base <= 0) {
            return 0;
        }
        return (int) Math.min(base, Math.max(1, Math.round(share * base)));
    }

    /** {@code count} distinct elements of {@code from}, in drawing order (all of them when there are fewer). */
    static <T> List<T> choose(SplittableRandom random, List<T> from, int count) {
        var pool = new ArrayList<>(from);
        var chosen = new ArrayList<T>();
        while (chosen.size() < count && !pool.isEmpty()) {
            chosen.add(pool.remove(random.nextInt(pool.size())));
        }
        return chosen;
    }

    /** A whole number from {@code low} to {@code high}, both included. */
    static int between(SplittableRandom random, int low, int high) {
        return random.nextInt(low, high + 1);
    }

    static boolean chance(SplittableRandom random, double probability) {
        return random.nextDouble() < probability;
    }
}
