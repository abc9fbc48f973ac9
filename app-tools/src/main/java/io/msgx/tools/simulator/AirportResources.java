package io.msgx.tools.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The home airport's resources as codes: contact stands 501–540 (each with gate {@code Gnn} and airbridge
 * {@code 2nn}), remote stands 601–660 (bus gates {@code B01}–{@code B09}), check-in islands A–H in T1 and J–R in
 * T2, chutes, baggage belts.
 */
final class AirportResources {

    private final SplittableRandom random;

    AirportResources(SplittableRandom random) {
        this.random = random;
    }

    String gateFor(String stand) {
        return stand.startsWith("5") ? "G" + stand.substring(1) : "B0" + Draws.between(random, 1, 9);
    }

    static String airbridgeOf(String stand) {
        return "2" + stand.substring(1);
    }

    String otherContactStand(String stand) {
        while (true) {
            var other = Integer.toString(Draws.between(random, 501, 540));
            if (!other.equals(stand)) {
                return other;
            }
        }
    }

    String otherStand(String stand) {
        return stand.startsWith("5") && Draws.chance(random, 0.7) ? otherContactStand(stand)
                : Integer.toString(Draws.between(random, 601, 660));
    }

    /** Consecutive check-in counters, e.g. {@code C12}, {@code C13}, ... */
    List<String> counters(String terminal, int count) {
        char island = (char) ((terminal.equals("T1") ? 'A' : 'J') + random.nextInt(8));
        int first = Draws.between(random, 1, 40 - count);
        var counters = new ArrayList<String>();
        for (int i = 0; i < count; i++) {
            counters.add(island + String.format("%02d", first + i));
        }
        return counters;
    }

    String chute() {
        return String.format("CH%04d", Draws.between(random, 1, 60));
    }

    String belt(String terminal) {
        return String.format("%02d", terminal.equals("T1") ? Draws.between(random, 1, 12) : Draws.between(random, 21, 36));
    }
}
