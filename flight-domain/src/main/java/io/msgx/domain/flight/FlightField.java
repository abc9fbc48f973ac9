package io.msgx.domain.flight;

import java.util.Arrays;
import java.util.List;
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
    FLAB(Kind.EXCEPTION, false),
    /** Exception status code (sis-format v2; {@code EXSS} is version 1's name, kept). */
    EXSC(Kind.TEXT, true),
    /** Exception status reason text (sis-format v2; {@code REMC} was version 1's remark, kept). */
    EXSR(Kind.TEXT, true),
    /** Diversion airport: attribute {@code DDES} of {@code FDIV}. */
    FDIV_DDES(Kind.TEXT, false, Carrier.ATTRIBUTE),
    /** Diversion direction: attribute {@code DDIR} of {@code FDIV}. */
    FDIV_DDIR(Kind.TEXT, false, Carrier.ATTRIBUTE),
    /** Return code: attribute {@code REID} of {@code FRET}. */
    FRET_REID(Kind.TEXT, false, Carrier.ATTRIBUTE),
    /** Abort code: attribute {@code ARES} of {@code FLAB}. */
    FLAB_ARES(Kind.TEXT, false, Carrier.ATTRIBUTE),
    /** Time of the timed indicator: child {@code POTM} of {@code PORT}. */
    PORT_POTM(Kind.TIME, false, Carrier.CHILD),
    /** The indicator itself ({@code O}/{@code C}): child {@code POID} of {@code PORT}. */
    PORT_POID(Kind.TEXT, false, Carrier.CHILD),
    /** VIP count. */
    VIPP(Kind.NUMBER, false),
    /** VIP count (the second of the pair; both may come in one message). */
    VIPR(Kind.NUMBER, false),
    /**
     * Cabin door open time: {@code POTM} of a {@code PORT} whose {@code POID} is {@code O} (sis-format v3 §10). Open
     * and close are two facts; {@link #PORT_POTM}/{@link #PORT_POID} stay the last {@code PORT} seen.
     */
    PORT_OPEN(Kind.TIME, false, Carrier.INDICATOR),
    /** Cabin door close time: {@code POTM} of a {@code PORT} whose {@code POID} is {@code C}. */
    PORT_CLOSE(Kind.TIME, false, Carrier.INDICATOR),
    /** Airline subcompany code (sis-format v3 §10). */
    ALSC(Kind.TEXT, true),
    /** Local bag count. */
    LBNO(Kind.NUMBER, true),
    /** Local bag weight, a decimal. */
    LBWT(Kind.NUMBER, true),
    /** Passenger count. */
    PAXC(Kind.NUMBER, true);

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

    /**
     * Where a field's value stands in a message. An {@link #ELEMENT} field is the text of the element named by its
     * code ({@code <STND>504</STND>}). The others are parts of an element named by the code's prefix, the part's
     * name being the code's suffix: {@code FDIV_DDES} is attribute {@code DDES} of {@code <FDIV>} (the seeds'
     * "exception object prefix fields"), {@code PORT_POTM} is child {@code <POTM>} of {@code <PORT>}. An element
     * with neither attributes, text nor children ({@code <FDIV/>}, {@code <PORT/>}) clears every field it carries
     * (decision D-54).
     */
    public enum Carrier {
        ELEMENT,
        ATTRIBUTE,
        CHILD,
        /**
         * The time child of an element that says by another child which fact the time is: {@code PORT_OPEN} is
         * {@code POTM} of a {@code <PORT>} whose {@code POID} is {@code O}. Such an element may come more than once in
         * one record, once per fact (decision D-116).
         */
        INDICATOR
    }

    /** Longest value a scalar may carry; the store's column width. */
    public static final int MAX_VALUE_LENGTH = 512;

    private static final Map<String, FlightField> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(FlightField::code, Function.identity()));

    private static final Map<String, List<FlightField>> BY_ELEMENT = Arrays.stream(values())
            .collect(Collectors.groupingBy(FlightField::element, Collectors.toUnmodifiableList()));

    private final Kind kind;
    private final boolean inScheduleRecord;
    private final Carrier carrier;

    FlightField(Kind kind, boolean inScheduleRecord) {
        this(kind, inScheduleRecord, Carrier.ELEMENT);
    }

    FlightField(Kind kind, boolean inScheduleRecord, Carrier carrier) {
        this.kind = kind;
        this.inScheduleRecord = inScheduleRecord;
        this.carrier = carrier;
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

    public Carrier carrier() {
        return carrier;
    }

    /** The element of a message that carries this field: its code, or the code's prefix for a part. */
    public String element() {
        return carrier == Carrier.ELEMENT ? name() : name().substring(0, name().indexOf('_'));
    }

    /**
     * The attribute or child element name of a part ({@code DDES} of {@code FDIV_DDES}); null for an element and for
     * an {@link Carrier#INDICATOR} field.
     */
    public String part() {
        return carrier == Carrier.ELEMENT || carrier == Carrier.INDICATOR ? null
                : name().substring(name().indexOf('_') + 1);
    }

    /**
     * Whether the element carrying this field may come more than once in one record: true for an element that carries
     * {@link Carrier#INDICATOR} fields ({@code PORT}: door open and door close).
     */
    public static boolean repeatable(String element) {
        return carriedBy(element).stream().anyMatch(field -> field.carrier == Carrier.INDICATOR);
    }

    /**
     * Every field the element {@code element} carries, in enum order: {@code STND} → [STND];
     * {@code FDIV} → [FDIV, FDIV_DDES, FDIV_DDIR]; {@code PORT} → [PORT_POTM, PORT_POID]; empty for an element that
     * carries no field (a list, or an unknown element).
     */
    public static List<FlightField> carriedBy(String element) {
        return BY_ELEMENT.getOrDefault(element, List.of());
    }

    public static Optional<FlightField> byCode(String code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }
}
