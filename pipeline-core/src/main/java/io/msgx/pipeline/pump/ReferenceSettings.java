package io.msgx.pipeline.pump;

/**
 * How reference messages are applied ({@link ReferenceProcessor}).
 *
 * @param dnldRemovesAbsent {@code msgx.reference.dnld-removes-absent}: whether a {@code DNLD} (the AODB's full list of
 *                          a type) also removes the records of that type it does not carry (D-59). Default
 *                          {@code false}: records are only removed by {@code DEL}
 */
public record ReferenceSettings(boolean dnldRemovesAbsent) {

    public static ReferenceSettings defaults() {
        return new ReferenceSettings(false);
    }
}
