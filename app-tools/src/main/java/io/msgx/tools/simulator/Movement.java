package io.msgx.tools.simulator;

/** Arrival or departure at the home airport ({@code MVIN}). */
enum Movement {
    ARRIVAL("A"),
    DEPARTURE("D");

    private final String code;

    Movement(String code) {
        this.code = code;
    }

    String code() {
        return code;
    }
}
