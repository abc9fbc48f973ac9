package io.msgx.tools.simulator;

/**
 * Something that happens to some flights of a day besides the routine, with the share of eligible flights it
 * happens to (at least one flight whenever one is eligible, so every {@code FLOP} subtype shows up).
 */
enum Twist {
    /** {@code PSDT}: planned stand occupancy. */
    PLANNED_STAND(0.15, null),
    /** {@code HNAG}: handling agents. */
    HANDLING_AGENTS(0.15, null),
    /** {@code SRVT}: special services (wheelchairs, unaccompanied minors, catering). */
    SERVICES(0.10, null),
    /** {@code VIPF}: a VIP on board, with the VIP counts {@code VIPP} and {@code VIPR}. */
    VIP(0.02, null),
    /** A second {@code GTDT} with another gate before boarding. */
    GATE_CHANGE(0.12, Movement.DEPARTURE),
    /** {@code STND}: another stand. */
    STAND_CHANGE(0.10, null),
    /** {@code ACFT}, {@code RENO} and {@code MAXP}: another aircraft. */
    AIRCRAFT_SWAP(0.03, null),
    /** {@code MAXP}: seats blocked. */
    CAPACITY_CHANGE(0.04, null),
    /** {@code TRML}: the flight moves terminal. */
    TERMINAL_CHANGE(0.02, null),
    /** {@code FLTY}: the flight type is corrected. */
    TYPE_CHANGE(0.01, null),
    /** {@code FLIN}: the flight nature is corrected. */
    NATURE_CHANGE(0.01, null),
    /** {@code ROUT} and {@code ERUT}: a technical stop added, or a via stop dropped. */
    ROUTE_CHANGE(0.03, null),
    /** {@code REMC}: a remark for the public displays. */
    REMARK(0.08, null),
    /** {@code RUNW}: the runway in use. */
    RUNWAY(0.6, null),
    /** {@code EXSS}: an external status with its remark. */
    EXTERNAL_STATUS(0.10, null),
    /** {@code COBT} and {@code CTOT}: an ATFM slot. */
    CDM_SLOT(0.10, Movement.DEPARTURE),
    /** {@code NEAT} and {@code NAAT}: the next station's estimated and actual arrival. */
    DOWNLINE_TIMES(0.5, Movement.DEPARTURE),
    /** {@code IEST}: an initial estimate, hours ahead. */
    INITIAL_ESTIMATE(0.4, Movement.ARRIVAL),
    /** {@code APPT}: the approach time given by approach control. */
    APPROACH_TIME(0.3, Movement.ARRIVAL),
    /** {@code PSHT}: the push-back record at off-block. */
    PUSH_BACK(0.3, Movement.DEPARTURE),
    /** {@code TIPT}: the aircraft is towed to another stand after on-block. */
    TOW(0.05, Movement.ARRIVAL),
    /** {@code PORT}: a timed indicator set when boarding opens. */
    TIMED_INDICATOR(0.05, Movement.DEPARTURE);

    private final double share;
    private final Movement only;

    Twist(double share, Movement only) {
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
