package io.msgx.runner.config;

import java.util.List;

/**
 * The effective configuration as {@code config check} shows it: every known key with its value and where the value
 * came from, secrets masked; and every problem that would refuse it at start-up.
 *
 * @param entries  each key in {@link Keys#ALL}'s order, then the open-prefix keys given
 * @param problems empty when the configuration is valid
 */
public record ConfigReport(List<Entry> entries, List<String> problems) {

    public ConfigReport {
        entries = List.copyOf(entries);
        problems = List.copyOf(problems);
    }

    /**
     * One key: its effective value ({@code null} when unset and without a default, or not read because a setting
     * above it turns its part off; secrets shown only as {@code (set)}/{@code (none)}) and its source ({@code default},
     * the file's name, {@code env VARIABLE}, or {@code given} for an embedder's map).
     */
    public record Entry(String key, String value, String source) {
    }

    public boolean valid() {
        return problems.isEmpty();
    }
}
