package io.msgx.tools.crash;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Where a kill is aimed. A random delay alone mostly hits a runner still warming up (on a loaded two-core machine a
 * restart takes seconds to become active and seconds more to its first commit) or an idle one, so most kills wait
 * until the databases show the runner at the work aimed at, making progress since it became active, then strike
 * after a short random jitter.
 */
public enum KillAim {
    /** A random moment from the process start, usually before the pipeline is active. */
    STARTUP,
    /** While the AODB side is writing rows and the poller takes them (the watermark moved since activation). */
    INTAKE,
    /**
     * Inside a processing transaction (it holds {@code PIPELINE_LOCK} or writes flight rows), once the runner has
     * ended messages since activation: mid-stream, not the first, cold group (other aims hit that one often).
     */
    PROCESSING,
    /** While the dispatcher delivers: rows were sent since activation and more wait. */
    DISPATCH,
    /** While the backfill marks: marks were written since activation and more are owed. */
    BACKFILL,
    /** A random moment after the pipeline became active, whatever it is doing. */
    ANY_MOMENT;

    /**
     * The aims of {@code kills} kills: every aim once in each run of six, in an order shuffled by {@code random}, so
     * even the short form aims at each phase once.
     */
    public static List<KillAim> deal(int kills, Random random) {
        var dealt = new ArrayList<KillAim>();
        while (dealt.size() < kills) {
            var deck = new ArrayList<>(List.of(values()));
            Collections.shuffle(deck, random);
            dealt.addAll(deck.subList(0, Math.min(deck.size(), kills - dealt.size())));
        }
        return dealt;
    }
}
