package io.msgx.domain.message;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every {@code FLOP} subtype of sis-format §5 and what it may change. A subtype changes either one whole
 * list ({@link #list()}) or a group of scalar fields ({@link #fields()}); nothing else on the flight.
 * {@code FDEL} is not here: it is its own message kind ({@link FlightDeletion}).
 */
public enum FlopSubtype {
    GTDT(FlightList.GTDT),
    CKDT(FlightList.CKDT),
    CLDT(FlightList.CLDT),
    PSDT(FlightList.PSDT),
    CHDT(FlightList.CHDT),
    DELY(FlightList.DELY),
    ABTM(FlightList.ABTM),
    CHOT(FlightList.CHOT),
    ROUT(FlightList.ROUT),
    ERUT(FlightList.ERUT),
    SRVT(FlightList.SRVT),
    VIPF(FlightList.VIPF),
    PSHT(FlightList.PSHT),
    TIPT(FlightList.TIPT),

    STND(FlightField.STND),
    ACFT(FlightField.ACFT),
    RENO(FlightField.RENO),
    TRML(FlightField.TRML),
    RUNW(FlightField.RUNW),
    MAXP(FlightField.MAXP),
    FLTY(FlightField.FLTY),
    FLIN(FlightField.FLIN),
    REMC(FlightField.REMC),
    FTSS(FlightField.FTSS),
    /**
     * Exception status: code {@code EXSC} and reason {@code EXSR} (sis-format v2); version 1's {@code EXSS} and
     * {@code REMC} are still applied when the body carries them.
     */
    EXSS(FlightField.EXSC, FlightField.EXSR, FlightField.EXSS, FlightField.REMC),
    BOTM(FlightField.BOTM),
    LACL(FlightField.LACL),
    FINT(FlightField.FINT),
    EOBT(FlightField.EOBT),
    TOBT(FlightField.TOBT),
    COBT(FlightField.COBT),
    CTOT(FlightField.CTOT),
    IEST(FlightField.IEST),
    APPT(FlightField.APPT),
    EGSR(FlightField.EGSR),
    EGST(FlightField.EGST),
    NEAT(FlightField.NEAT),
    NAAT(FlightField.NAAT),
    PEDT(FlightField.PEDT),
    PADT(FlightField.PADT),
    ESTT(FlightField.ESTT),
    ACTT(FlightField.ACTT),
    /** Cancellation time: the flight stays ACTIVE, marked cancelled. */
    CNCL(FlightField.CNCL),
    /** Diversion: reason, airport ({@code DDES}), direction ({@code DDIR}). */
    FDIV(FlightField.FDIV, FlightField.FDIV_DDES, FlightField.FDIV_DDIR),
    /** Return: reason and code ({@code REID}). */
    FRET(FlightField.FRET, FlightField.FRET_REID),
    /** Abort: reason and code ({@code ARES}). */
    FLAB(FlightField.FLAB, FlightField.FLAB_ARES),
    /**
     * Cabin door: open ({@code POID=O}) and close ({@code POID=C}) times, each kept apart, and the last {@code PORT}
     * seen ({@code POTM}, {@code POID}); a body carrying one leaves the other as it was (sis-format v3 §10).
     */
    PORT(FlightField.PORT_POTM, FlightField.PORT_POID, FlightField.PORT_OPEN, FlightField.PORT_CLOSE),
    /** Airline subcompany code (sis-format v3 §10). */
    ALSC(FlightField.ALSC),
    /** Local bag count. */
    LBNO(FlightField.LBNO),
    /** Local bag weight. */
    LBWT(FlightField.LBWT),
    /** Passenger count. */
    PAXC(FlightField.PAXC),
    /** VIP counts; {@code VIPP} and {@code VIPR} name the same group, both may come in one message. */
    VIPP(FlightField.VIPP, FlightField.VIPR),
    /** VIP counts, as {@link #VIPP}. */
    VIPR(FlightField.VIPP, FlightField.VIPR),
    /** Turnaround link. */
    TAOP(FlightField.TAOP, FlightField.TAFL, FlightField.TAID),
    /** Handling agents. */
    HNAG(FlightField.PHAG, FlightField.FHAG, FlightField.MHAG),
    /** Code-share link; an empty {@code MAID} makes the flight no longer a code-share child. */
    CSHR(FlightField.CSOP, FlightField.CSFT, FlightField.MAID);

    private static final Map<String, FlopSubtype> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(Enum::name, Function.identity()));

    private final FlightList list;
    private final List<FlightField> fields;

    FlopSubtype(FlightList list) {
        this.list = list;
        this.fields = List.of();
    }

    FlopSubtype(FlightField... fields) {
        this.list = null;
        this.fields = List.of(fields);
    }

    /** The list this subtype replaces as a whole, or empty for a scalar subtype. */
    public Optional<FlightList> list() {
        return Optional.ofNullable(list);
    }

    /** The scalar fields this subtype may change; empty for a list subtype. */
    public List<FlightField> fields() {
        return fields;
    }

    public static Optional<FlopSubtype> byCode(String styp) {
        return styp == null ? Optional.empty() : Optional.ofNullable(BY_CODE.get(styp.strip().toUpperCase(java.util.Locale.ROOT)));
    }
}
