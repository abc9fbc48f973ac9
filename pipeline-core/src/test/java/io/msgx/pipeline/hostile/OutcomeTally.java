package io.msgx.pipeline.hostile;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Counts per outcome (and per outcome of each mutation), printed at the end of a fuzz run. */
final class OutcomeTally {

    private final Map<String, Long> outcomes = new TreeMap<>();
    private final Map<String, Map<String, Long>> byMutation = new TreeMap<>();
    private long total;

    void add(String outcome, XmlMutator.Mutant mutant) {
        add(outcome, mutant.mutations().get(0));
    }

    void add(String outcome, XmlMutator.Mutation firstMutation) {
        total++;
        outcomes.merge(outcome, 1L, Long::sum);
        byMutation.computeIfAbsent(firstMutation.name(), m -> new TreeMap<>()).merge(outcome, 1L, Long::sum);
    }

    long total() {
        return total;
    }

    long count(String outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }

    Map<String, Long> outcomes() {
        return Map.copyOf(outcomes);
    }

    String report(String title, long millis) {
        var sb = new StringBuilder();
        sb.append(title).append(": ").append(total).append(" messages in ").append(millis).append(" ms\n");
        outcomes.forEach((outcome, count) -> sb.append(String.format("  %-28s %,10d  %5.1f%%%n", outcome, count,
                100.0 * count / Math.max(1, total))));
        sb.append("  by first mutation:\n");
        byMutation.forEach((mutation, counts) -> sb.append("    ").append(String.format("%-18s", mutation))
                .append(counts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")))
                .append('\n'));
        return sb.toString();
    }
}
