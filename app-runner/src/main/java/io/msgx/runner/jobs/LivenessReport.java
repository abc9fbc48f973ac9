package io.msgx.runner.jobs;

import java.util.List;

/**
 * What {@code /health/live} answers: live when no loop is stale and no loop met a fatal {@link Error}.
 *
 * @param stale the stale loops (empty when all beat)
 * @param fatal the fatal error a loop met, as {@code loop: error}; null when none
 */
public record LivenessReport(List<LivenessPolicy.Stale> stale, String fatal) {

    public LivenessReport {
        stale = List.copyOf(stale);
    }

    /** Nothing stale, nothing fatal. */
    public static LivenessReport alive() {
        return new LivenessReport(List.of(), null);
    }

    public boolean live() {
        return stale.isEmpty() && fatal == null;
    }
}
