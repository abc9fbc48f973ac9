package io.msgx.tools.simulator;

/** What may go wrong with an operated flight, with the share of eligible flights it happens to (at least one). */
enum Irregularity {
    NONE(0.0, null),
    /** {@code CNCL}: cancelled; the flight stays, marked cancelled, and nothing else happens to it. */
    CANCELLED(0.01, null),
    /** {@code FDIV}: an arrival diverted to another airport. */
    DIVERTED(0.005, Movement.ARRIVAL),
    /** {@code FRET}: a departure returns after take-off. */
    RETURNED(0.005, Movement.DEPARTURE),
    /** {@code FLAB}: a rejected take-off; the flight leaves later. */
    ABORTED(0.005, Movement.DEPARTURE);

    private final double share;
    private final Movement only;

    Irregularity(double share, Movement only) {
        this.share = share;
        this.only = only;
    }

    double share() {
        return share;
    }

    boolean fits(Movement movement) {
        return only == null || only == movement;
    }
}
