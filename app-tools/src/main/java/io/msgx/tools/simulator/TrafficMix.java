package io.msgx.tools.simulator;

/**
 * The proportions of a simulated airport day. Flight shares are of the {@code N} operated flights; message
 * shares are of the flight messages of the day (schedules, operations, deletions).
 *
 * @param codeShareMasters share of operated flights that are code-share masters, each with one or two
 *                         children (marketing flights, extra FLIDs on top of {@code N})
 * @param arrivals         share of operated flights that are arrivals; the rest depart
 * @param addedFlights     share of operated flights that arrive mid-day as {@code SCHD ADFT} instead of in the plan
 * @param deletions        share of operated flights deleted near the end of the day ({@code FDEL}); at least one
 *                         master and, when there are two or more, one child
 * @param duplicates       share of messages sent twice (the exact XML again, same {@code SEQN})
 * @param ignored          share of messages of an ignored type ({@code LDM}, {@code REGN}, {@code RSTA}, {@code EROR})
 * @param malformed        share of messages that are broken XML
 */
public record TrafficMix(double codeShareMasters, double arrivals, double addedFlights, double deletions,
                         double duplicates, double ignored, double malformed) {

    public TrafficMix {
        share("codeShareMasters", codeShareMasters);
        share("arrivals", arrivals);
        share("addedFlights", addedFlights);
        share("deletions", deletions);
        share("duplicates", duplicates);
        share("ignored", ignored);
        share("malformed", malformed);
        if (codeShareMasters + addedFlights > 1.0) {
            throw new IllegalArgumentException("code-share masters and added flights are distinct flights: their shares "
                    + "must not exceed 1 together");
        }
    }

    /** ~35 % masters, 50/50 arrivals and departures, 3 % ADFT, 2 % FDEL, 1 % duplicates, 1 % ignored, 0.5 % malformed. */
    public static TrafficMix realistic() {
        return new TrafficMix(0.35, 0.5, 0.03, 0.02, 0.01, 0.01, 0.005);
    }

    private static void share(String name, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(name + " must be a share between 0 and 1, got " + value);
        }
    }
}
