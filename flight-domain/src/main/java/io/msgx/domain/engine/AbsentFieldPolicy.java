package io.msgx.domain.engine;

/**
 * What a full schedule ({@code SCHD DNLD/RESP}) means by a field or list it does not carry (seeds' Q13).
 *
 * <p>The seeds' rule, and the default, is {@link #KEEP}: absent says nothing, only an explicit empty element
 * clears. The SIS specification says the opposite (an optional field missing from the latest schedule means
 * the AODB no longer has it): {@link #CLEAR} implements that, limited to what a schedule record can carry
 * ({@code FlightField.inScheduleRecord()} and every list) so that values only a {@code FLOP} sets survive.
 */
public enum AbsentFieldPolicy {
    KEEP,
    CLEAR
}
