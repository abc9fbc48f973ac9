package io.msgx.pipeline.hostile;

/**
 * How much the fuzz tests run, from system properties so the default build stays short and the long form is one
 * command away (docs/reliability.md):
 * <ul>
 *   <li>{@code msgx.fuzz.count} — mutants through the whole pipeline (default 6,000);</li>
 *   <li>{@code msgx.fuzz.codec-count} — mutants through the codec alone (default 30,000);</li>
 *   <li>{@code msgx.fuzz.seed} — the base seed (default fixed, so every build runs the same mutants);</li>
 *   <li>{@code msgx.fuzz.from} — the first mutant index, to rerun from a reported failure.</li>
 * </ul>
 */
record FuzzSettings(long pipelineCount, long codecCount, long seed, long from) {

    static final long DEFAULT_SEED = 20_240_311L;

    static FuzzSettings fromSystemProperties() {
        return new FuzzSettings(
                Long.getLong("msgx.fuzz.count", 6_000),
                Long.getLong("msgx.fuzz.codec-count", 30_000),
                Long.getLong("msgx.fuzz.seed", DEFAULT_SEED),
                Long.getLong("msgx.fuzz.from", 0));
    }

    /** The system properties that reproduce a run from {@code index} on. */
    String rerunFrom(long index, long count) {
        return "-Dmsgx.fuzz.seed=" + seed + " -Dmsgx.fuzz.from=" + index + " -Dmsgx.fuzz.count=" + count
                + " -Dmsgx.fuzz.codec-count=" + count;
    }
}
