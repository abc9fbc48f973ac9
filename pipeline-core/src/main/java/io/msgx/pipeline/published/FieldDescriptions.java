package io.msgx.pipeline.published;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;

import java.util.Map;
import java.util.Optional;

/**
 * What each scalar, list and item field means, in a few words, for the published schemas ({@link PublishedSchemas}).
 * The words come from sis-format §4, §5, §10 and docs/domain.md. A code the model gains without a description here
 * stops the schemas' generation, so a new field is never published undocumented.
 */
final class FieldDescriptions {

    private static final Map<String, String> SCALARS = Map.ofEntries(
            Map.entry("FFID", "display identifier ALCD-FLNO-MVIN-SODT-FLIN"),
            Map.entry("ALCD", "airline code"),
            Map.entry("FLNO", "flight number"),
            Map.entry("MVIN", "movement: A arrival, D departure"),
            Map.entry("SODT", "scheduled time; the operation day derives from it"),
            Map.entry("FLTY", "flight type"),
            Map.entry("FLIN", "flight indicator"),
            Map.entry("ACFT", "aircraft type"),
            Map.entry("RENO", "aircraft registration"),
            Map.entry("TRML", "terminal"),
            Map.entry("MAXP", "maximum passengers"),
            Map.entry("STND", "stand"),
            Map.entry("RUNW", "runway"),
            Map.entry("FTSS", "flight status code"),
            Map.entry("EXSS", "version 1's exception status"),
            Map.entry("REMC", "remark"),
            Map.entry("ESTT", "estimated time of the movement"),
            Map.entry("ACTT", "actual time of the movement"),
            Map.entry("TAOP", "turnaround link: the turnaround flight's airline"),
            Map.entry("TAFL", "turnaround link: the turnaround flight's number"),
            Map.entry("TAID", "turnaround link: the turnaround flight's FLID"),
            Map.entry("PHAG", "handling agent (PHAG of the handling agents)"),
            Map.entry("FHAG", "handling agent (FHAG of the handling agents)"),
            Map.entry("MHAG", "handling agent (MHAG of the handling agents)"),
            Map.entry("CSOP", "code-share link: CSOP, only on a code-share child"),
            Map.entry("CSFT", "code-share link: CSFT, only on a code-share child"),
            Map.entry("MAID", "code-share link: the FLID of the master flight, only on a code-share child"),
            Map.entry("BOTM", "boarding open time"),
            Map.entry("LACL", "last call time"),
            Map.entry("FINT", "final call time"),
            Map.entry("EOBT", "CDM: estimated off-block time"),
            Map.entry("TOBT", "CDM: target off-block time"),
            Map.entry("COBT", "CDM: calculated off-block time"),
            Map.entry("CTOT", "CDM: calculated take-off time"),
            Map.entry("IEST", "CDM: estimate (IEST)"),
            Map.entry("APPT", "CDM: approved time (APPT)"),
            Map.entry("EGSR", "engine start request time"),
            Map.entry("EGST", "engine start time"),
            Map.entry("NEAT", "next station's estimated time"),
            Map.entry("NAAT", "next station's actual time"),
            Map.entry("PEDT", "previous station's estimated time"),
            Map.entry("PADT", "previous station's actual time"),
            Map.entry("CNCL", "cancellation time; the flight stays ACTIVE, marked cancelled; null = withdrawn"),
            Map.entry("FDIV", "diversion: the reason, or the element's children as CHILD=value pairs joined by ;"),
            Map.entry("FRET", "return: the reason, or the element's children as CHILD=value pairs joined by ;"),
            Map.entry("FLAB", "abort: the reason, or the element's children as CHILD=value pairs joined by ;"),
            Map.entry("EXSC", "exception status code"),
            Map.entry("EXSR", "exception status reason"),
            Map.entry("FDIV_DDES", "diversion airport (attribute DDES of FDIV)"),
            Map.entry("FDIV_DDIR", "diversion direction (attribute DDIR of FDIV)"),
            Map.entry("FRET_REID", "return code (attribute REID of FRET)"),
            Map.entry("FLAB_ARES", "abort code (attribute ARES of FLAB)"),
            Map.entry("PORT_POTM", "time of the last PORT seen (child POTM)"),
            Map.entry("PORT_POID", "indicator of the last PORT seen (child POID): O open, C closed"),
            Map.entry("VIPP", "VIP count"),
            Map.entry("VIPR", "VIP count (the second of the pair)"),
            Map.entry("PORT_OPEN", "cabin door open time (POTM of a PORT whose POID is O)"),
            Map.entry("PORT_CLOSE", "cabin door close time (POTM of a PORT whose POID is C)"),
            Map.entry("ALSC", "airline subcompany code"),
            Map.entry("LBNO", "local bag count"),
            Map.entry("LBWT", "local bag weight, a decimal"),
            Map.entry("PAXC", "passenger count"));

    /** The scalars published for contract version 1 only, and what replaces each. */
    private static final Map<String, String> DEPRECATED_SCALARS = Map.of("EXSS", "EXSC and EXSR");

    private static final Map<String, String> LISTS = Map.ofEntries(
            Map.entry("GTDT", "gates: planned and actual open and close"),
            Map.entry("CKDT", "check-in counters"),
            Map.entry("CLDT", "reclaim carousels"),
            Map.entry("PSDT", "planned stands: stand, start, end"),
            Map.entry("CHDT", "chutes: planned and actual begin and end"),
            Map.entry("DELY", "delays: code, start, duration, description"),
            Map.entry("ABTM", "airbridge on and off"),
            Map.entry("CHOT", "chocks on and off"),
            Map.entry("ROUT", "route"),
            Map.entry("ERUT", "entire route (a list apart from ROUT)"),
            Map.entry("SRVT", "services: type, quantity, start, end, provider, abnormal code and reason"),
            Map.entry("VIPF", "VIP records, each with its VIP services (VIPT)"),
            Map.entry("PSHT", "push-back and tow records: time, in or out, stand"),
            Map.entry("TIPT", "towing records: time, stand"),
            Map.entry("EXTENSIONS", "what the AODB sent that the model does not know yet, as PATH and VALUE in document"
                    + " order (decision D-120)"));

    private static final Map<String, String> ITEM_FIELDS = Map.ofEntries(
            Map.entry("GATE", "gate"),
            Map.entry("PGOT", "planned gate open time"),
            Map.entry("PGCT", "planned gate close time"),
            Map.entry("GOTM", "actual gate open time"),
            Map.entry("GCTM", "actual gate close time"),
            Map.entry("GTYP", "gate type"),
            Map.entry("CHKC", "check-in counter"),
            Map.entry("CCLS", "class"),
            Map.entry("PCOT", "planned open time"),
            Map.entry("PCCT", "planned close time"),
            Map.entry("COTM", "actual open time"),
            Map.entry("CCTM", "actual close time"),
            Map.entry("CTYP", "type"),
            Map.entry("BELT", "reclaim carousel"),
            Map.entry("BCLS", "class"),
            Map.entry("BTYP", "type"),
            Map.entry("FBAG", "first bag time"),
            Map.entry("LBAG", "last bag time"),
            Map.entry("PSST", "planned stand"),
            Map.entry("STST", "stand start time"),
            Map.entry("STET", "stand end time"),
            Map.entry("CHUT", "chute"),
            Map.entry("PCBT", "planned begin time"),
            Map.entry("PCET", "planned end time"),
            Map.entry("CBTM", "actual begin time"),
            Map.entry("CETM", "actual end time"),
            Map.entry("CODE", "delay code"),
            Map.entry("STRT", "delay start time"),
            Map.entry("DURA", "delay duration, HHmm"),
            Map.entry("DESC", "delay description"),
            Map.entry("ABDG", "airbridge"),
            Map.entry("ABOP", "airbridge operation: on or off"),
            Map.entry("AOTM", "airbridge operation time"),
            Map.entry("CHTM", "chocks time"),
            Map.entry("CHID", "chocks indicator: on or off"),
            Map.entry("CHST", "chocks stand"),
            Map.entry("APCD", "airport code"),
            Map.entry("SCAT", "scheduled arrival time"),
            Map.entry("SCDT", "scheduled departure time"),
            Map.entry("ESAT", "estimated arrival time"),
            Map.entry("ESDT", "estimated departure time"),
            Map.entry("ACAT", "actual arrival time"),
            Map.entry("ACDT", "actual departure time"),
            Map.entry("SADC", "day change of the arrival"),
            Map.entry("SDDC", "day change of the departure"),
            Map.entry("SRTC", "service type"),
            Map.entry("SRQT", "service quantity"),
            Map.entry("SRST", "service start time"),
            Map.entry("SRET", "service end time"),
            Map.entry("SRPR", "service provider"),
            Map.entry("SANR", "abnormal code"),
            Map.entry("SARR", "abnormal reason"),
            Map.entry("SVCD", "version 1's service code"),
            Map.entry("SVTM", "version 1's service time"),
            Map.entry("SVRM", "version 1's service remark"),
            Map.entry("VPCD", "VIP code"),
            Map.entry("VFES", "VIP record VFES"),
            Map.entry("VPNM", "version 1's VIP name"),
            Map.entry("VPRK", "version 1's VIP rank"),
            Map.entry("VPRM", "version 1's VIP remark"),
            Map.entry("VIPT", "the record's VIP services, in document order (decision D-117)"),
            Map.entry("VSCD", "VIP service code"),
            Map.entry("VTQY", "VIP service quantity"),
            Map.entry("VTST", "VIP service start time"),
            Map.entry("VTET", "VIP service end time"),
            Map.entry("PSTM", "push-back or tow time"),
            Map.entry("PSID", "in or out"),
            Map.entry("PUST", "stand"),
            Map.entry("TRTM", "towing time"),
            Map.entry("TRST", "stand"),
            Map.entry("PATH", "where the value stood, relative to the record: XTRA, XTRA/@CODE, GTDT/@ZONE"),
            Map.entry("VALUE", "the value as sent; absent for an empty one"));

    /** The item fields published for contract version 1 only, and what replaces each. */
    private static final Map<String, String> DEPRECATED_ITEM_FIELDS = Map.of(
            "SVCD", "the real SRVT item fields (SRTC, SRQT, SRST, SRET, SRPR, SANR, SARR)",
            "SVTM", "the real SRVT item fields (SRTC, SRQT, SRST, SRET, SRPR, SANR, SARR)",
            "SVRM", "the real SRVT item fields (SRTC, SRQT, SRST, SRET, SRPR, SANR, SARR)",
            "VPNM", "the real VIPF item fields (VPCD, VFES, VIPT)",
            "VPRK", "the real VIPF item fields (VPCD, VFES, VIPT)",
            "VPRM", "the real VIPF item fields (VPCD, VFES, VIPT)");

    private FieldDescriptions() {
    }

    static String of(FlightField field) {
        return required(SCALARS, field.code(), "scalar");
    }

    static String of(FlightList list) {
        return required(LISTS, list.code(), "list");
    }

    static String ofItemField(String code) {
        return required(ITEM_FIELDS, code, "item field");
    }

    /** What replaces a version-1 scalar, when {@code field} is one. */
    static Optional<String> replacementOf(FlightField field) {
        return Optional.ofNullable(DEPRECATED_SCALARS.get(field.code()));
    }

    /** What replaces a version-1 item field, when {@code code} is one. */
    static Optional<String> replacementOfItemField(String code) {
        return Optional.ofNullable(DEPRECATED_ITEM_FIELDS.get(code));
    }

    private static String required(Map<String, String> descriptions, String code, String what) {
        var description = descriptions.get(code);
        if (description == null) {
            throw new IllegalStateException("the " + what + " " + code + " has no description for the published"
                    + " schemas: add one to FieldDescriptions, then rewrite docs/schemas (docs/testing.md)");
        }
        return description;
    }
}
