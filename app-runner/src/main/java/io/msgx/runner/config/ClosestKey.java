package io.msgx.runner.config;

import java.util.Comparator;
import java.util.Optional;

/**
 * The known key nearest to a misspelt one, by edit distance (Levenshtein), for the refusal of a key or an
 * {@code MSGX_*} variable this build does not know: {@code MSGX_STORE_URLL} → {@code msgx.store.url}. Only a key
 * within a third of the given name's length is suggested; a name unlike every key gets no guess.
 */
final class ClosestKey {

    private ClosestKey() {
    }

    /** The known key nearest to the key {@code given}. */
    static Optional<String> toKey(String given) {
        return nearest(given, key -> key);
    }

    /** The known key whose variable ({@link ConfigSource#variableOf}) is nearest to the variable {@code given}. */
    static Optional<String> toVariable(String given) {
        return nearest(given, ConfigSource::variableOf);
    }

    private static Optional<String> nearest(String given, java.util.function.UnaryOperator<String> spelling) {
        var best = Keys.ALL.stream().min(Comparator.comparingInt(key -> distance(given, spelling.apply(key))));
        return best.filter(key -> distance(given, spelling.apply(key)) <= Math.max(2, given.length() / 3));
    }

    /** Levenshtein distance: insertions, deletions and substitutions, each 1. */
    static int distance(String a, String b) {
        var previous = new int[b.length() + 1];
        var current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            var swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
