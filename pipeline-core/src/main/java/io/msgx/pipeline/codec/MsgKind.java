package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * What kind of message a {@code TYPE}/{@code STYP} pair names (sis-format §3):
 * <ul>
 *   <li>{@code SCHD} with {@code DNLD}, {@code RESP} or {@code ADFT} → {@link Schd}; with {@code DEL} → {@link Fdel}
 *       (sis-format v3 §10: the package lists the flights to delete);</li>
 *   <li>{@code FLOP} with {@code FDEL}, and {@code FDEL} with any {@code STYP} → {@link Fdel};</li>
 *   <li>{@code FLOP} with a known {@link FlopSubtype} → {@link Flop};</li>
 *   <li>a configured reference type with {@code DNLD}, {@code RESP}, {@code ADD}, {@code UPD} or {@code DEL}
 *       ({@link ReferenceAction}) → {@link Ref};</li>
 *   <li>{@code SCHS} with {@code DNLD} or {@code RESP} → {@link Seasonal} (sis-format §7: planned services, no flight
 *       instance);</li>
 *   <li>everything else → {@link Unsupported}: ignored types ({@code LDM}, {@code REGN}, ...), an unknown
 *       {@code FLOP} or {@code SCHD} subtype, an unknown type. Ignore rules are the pipeline's business.</li>
 * </ul>
 */
public sealed interface MsgKind {

    /**
     * What a caller does with each kind, one method per kind (D-149): a new kind adds a method here, and every
     * {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R schedule(Schd schedule);

        R operation(Flop operation);

        R deletion(Fdel deletion);

        R reference(Ref reference);

        R seasonal(Seasonal seasonal);

        R unsupported(Unsupported unsupported);
    }

    /** The answer of the case for this kind. */
    <R> R match(Cases<R> cases);

    /**
     * The reference types of sis-format §6 (version 2), the default of the codec's configurable set: the 22 types of
     * its table except {@code REGN} (in the seeds' ignore baseline, so it stays {@code SKIPPED(ignored:REGN-*)}),
     * plus the version-1 names as aliases that cost nothing ({@link #V1_REFERENCE_TYPES}).
     */
    Set<String> SIS_REFERENCE_TYPES = Set.of("ABDG", "ABNR", "AIRC", "AIRL", "ARPT", "BLST", "CHLT", "CITY", "CLST",
            "COUL", "DLYL", "FLTL", "GLST", "HLTR", "ORGN", "PLST", "REGL", "SLST", "STTS", "TLST", "VIPL", "VIPS");

    /** The reference type names of sis-format version 1, still accepted, each stored under its own name (D-58). */
    Set<String> V1_REFERENCE_TYPES = Set.of("GATE", "STND", "CHKC", "BELT", "CHUT", "ACFT", "DLYC");

    /** {@link #SIS_REFERENCE_TYPES} and {@link #V1_REFERENCE_TYPES}. */
    Set<String> DEFAULT_REFERENCE_TYPES = java.util.stream.Stream.concat(SIS_REFERENCE_TYPES.stream(),
            V1_REFERENCE_TYPES.stream()).collect(java.util.stream.Collectors.toUnmodifiableSet());

    /** The flight message types; never usable as reference types. */
    Set<String> FLIGHT_TYPES = Set.of("SCHD", "FLOP", "FDEL");

    record Schd(ScheduleKind scheduleKind) implements MsgKind {
        public Schd {
            Objects.requireNonNull(scheduleKind, "scheduleKind");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.schedule(this);
        }
    }

    record Flop(FlopSubtype subtype) implements MsgKind {
        public Flop {
            Objects.requireNonNull(subtype, "subtype");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.operation(this);
        }
    }

    record Fdel() implements MsgKind {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.deletion(this);
        }
    }

    record Ref(String referenceType, ReferenceAction action) implements MsgKind {
        public Ref {
            Objects.requireNonNull(referenceType, "referenceType");
            Objects.requireNonNull(action, "action");
        }

        /** An answer to our request ({@code RESP}). */
        public Ref(String referenceType) {
            this(referenceType, ReferenceAction.RESP);
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.reference(this);
        }
    }

    /**
     * A seasonal schedule ({@code SCHS}, sis-format §7): the season's planned services, which name no flight
     * instance and are not flight state. Its body is not read; the pipeline ends it {@code SKIPPED} with its own
     * reason (decision D-63).
     */
    record Seasonal(String subtype) implements MsgKind {
        public Seasonal {
            Objects.requireNonNull(subtype, "subtype");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.seasonal(this);
        }
    }

    record Unsupported(String type, String subtype) implements MsgKind {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.unsupported(this);
        }
    }

    /** The kind named by an upper-case {@code TYPE} and {@code STYP}. */
    static MsgKind of(String type, String subtype, Set<String> referenceTypes) {
        switch (type) {
            case "SCHD":
                if ("DEL".equals(subtype)) {
                    return new Fdel();
                }
                return Arrays.stream(ScheduleKind.values())
                        .filter(kind -> kind.name().equals(subtype))
                        .findFirst()
                        .<MsgKind>map(Schd::new)
                        .orElseGet(() -> new Unsupported(type, subtype));
            case "FDEL":
                return new Fdel();
            case "SCHS":
                return "DNLD".equals(subtype) || "RESP".equals(subtype)
                        ? new Seasonal(subtype)
                        : new Unsupported(type, subtype);
            case "FLOP":
                if ("FDEL".equals(subtype)) {
                    return new Fdel();
                }
                return FlopSubtype.byCode(subtype).<MsgKind>map(Flop::new).orElseGet(() -> new Unsupported(type, subtype));
            default:
                if (!referenceTypes.contains(type)) {
                    return new Unsupported(type, subtype);
                }
                return ReferenceAction.byCode(subtype).<MsgKind>map(action -> new Ref(type, action))
                        .orElseGet(() -> new Unsupported(type, subtype));
        }
    }

    /** The kind a flight message is decoded as. */
    static MsgKind of(FlightMessage message) {
        return message.match(FlightMessageKind.INSTANCE);
    }
}
