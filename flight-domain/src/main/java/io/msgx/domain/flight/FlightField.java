package io.msgx.domain.flight;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every scalar field of a flight, by its protocol code. Values are kept as the protocol's text so that what
 * the AODB said is what downstream reads; a time field's text is validated only where a rule depends on it
 * ({@code SODT} for the operation day).
 *
 * <p>{@link #inScheduleRecord()} marks the fields of a schedule record ({@code FLTR}, sis-format §4); the
 * others reach a flight through {@code FLOP} only. The distinction matters for the SIS absent-field rule
 * (seeds' Q13): a schedule can only clear what a schedule carries.
 */
public enum FlightField {
    FFID(Kind.TEXT, true),
    ALCD(Kind.TEXT, true),
    FLNO(Kind.TEXT, true),
    MVIN(Kind.TEXT, true),
    SODT(Kind.TIME, true),
    FLTY(Kind.TEXT, true),
    FLIN(Kind.TEXT, true),
    ACFT(Kind.TEXT, true),
    RENO(Kind.TEXT, true),
    TRML(Kind.TEXT, true),
    MAXP(Kind.NUMBER, true),
    STND(Kind.TEXT, true),
    RUNW(Kind.TEXT, true),
    FTSS(Kind.TEXT, true),
    EXSS(Kind.TEXT, true),
    REMC(Kind.TEXT, true),
    ESTT(Kind.TIME, true),
    ACTT(Kind.TIME, true),
    TAOP(Kind.TEXT, true),
    TAFL(Kind.TEXT, true),
    TAID(Kind.TEXT, true),
    PHAG(Kind.TEXT, true),
    FHAG(Kind.TEXT, true),
    MHAG(Kind.TEXT, true),
    CSOP(Kind.TEXT, true),
    CSFT(Kind.TEXT, true),
    MAID(Kind.TEXT, true),
    BOTM(Kind.TIME, false),
    LACL(Kind.TIME, false),
    FINT(Kind.TIME, false),
    EOBT(Kind.TIME, false),
    TOBT(Kind.TIME, false),
    COBT(Kind.TIME, false),
    CTOT(Kind.TIME, false),
    IEST(Kind.TIME, false),
    APPT(Kind.TIME, false),
    EGSR(Kind.TIME, false),
    EGST(Kind.TIME, false),
    NEAT(Kind.TIME, false),
    NAAT(Kind.TIME, false),
    PEDT(Kind.TIME, false),
    PADT(Kind.TIME, false),
    CNCL(Kind.TIME, false),
    FDIV(Kind.EXCEPTION, false),
    FRET(Kind.EXCEPTION, false),
    FLAB(Kind.EXCEPTION, false);

    /** What kind of text a field holds; informs documentation and projections, never rejects a value. */
    public enum Kind {
        TEXT,
        /** {@code ddMMMyyHHmm}, airport local time. */
        TIME,
        NUMBER,
        /**
         * An exception object (diversion, return, abort). A plain value is kept as is; a structured element is
         * kept as {@code CHILD=value} pairs joined by {@code ;} in document order (see docs/domain.md).
         */
        EXCEPTION
    }

    /** Longest value a scalar may carry; the store's column width. */
    public static final int MAX_VALUE_LENGTH = 512;

    private static final Map<String, FlightField> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(FlightField::code, Function.identity()));

    private final Kind kind;
    private final boolean inScheduleRecord;

    FlightField(Kind kind, boolean inScheduleRecord) {
        this.kind = kind;
        this.inScheduleRecord = inScheduleRecord;
    }

    /** The protocol code, which is also the element name. */
    public String code() {
        return name();
    }

    public Kind kind() {
        return kind;
    }

    public boolean inScheduleRecord() {
        return inScheduleRecord;
    }

    public static Optional<FlightField> byCode(String code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }
}
