package io.msgx.domain.flight;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The ordered lists a flight carries: the eight resource collections, the two route kinds, service, VIP,
 * push-back and towing records. Each list item keeps its position ({@code ORDINAL}, from 1) and the upstream sequence attribute
 * ({@code SOURCE_SEQ}, from {@link #sequenceAttribute()}, may be missing or repeated). Items are never
 * de-duplicated by resource code: the same gate twice is two assignments.
 *
 * <p>{@code ROUT} and {@code ERUT} are separate lists; equal sequence numbers in one never touch the other.
 */
public enum FlightList {
    GTDT("GTNO", Group.RESOURCE, "GATE", "PGOT", "PGCT", "GOTM", "GCTM", "GTYP"),
    CKDT("CKNO", Group.RESOURCE, "CHKC", "CCLS", "PCOT", "PCCT", "COTM", "CCTM", "CTYP"),
    CLDT("CLNO", Group.RESOURCE, "BELT", "BCLS", "PCOT", "PCCT", "BTYP", "FBAG", "LBAG"),
    PSDT("PSNO", Group.RESOURCE, "PSST", "STST", "STET"),
    CHDT("CHNO", Group.RESOURCE, "CHUT", "CCLS", "PCBT", "PCET", "CBTM", "CETM", "CTYP"),
    DELY("DLNO", Group.RESOURCE, "CODE", "STRT", "DURA", "DESC"),
    ABTM("ASNO", Group.RESOURCE, "ABDG", "ABOP", "AOTM"),
    CHOT("CSNO", Group.RESOURCE, "CHTM", "CHID", "CHST"),
    ROUT("RTNO", Group.ROUTE, "APCD", "SCAT", "SCDT", "ESAT", "ESDT", "ACAT", "ACDT", "SADC", "SDDC"),
    ERUT("RTNO", Group.ROUTE, "APCD", "SCAT", "SCDT", "ESAT", "ESDT", "ACAT", "ACDT", "SADC", "SDDC"),
    /** Services; {@code SVCD SVTM SVRM} are version 1's item fields, kept beside the real ones. */
    SRVT("SVNO", Group.RECORD, "SRTC", "SRQT", "SRST", "SRET", "SRPR", "SANR", "SARR", "SVCD", "SVTM", "SVRM"),
    /**
     * VIP records; {@code VPNM VPRK VPRM} are version 1's item fields, kept beside the real ones. {@code VIPT} holds the
     * record's VIP services ({@link #nestedItems()}).
     */
    VIPF("VPNO", Group.RECORD, "VPCD", "VFES", "VPNM", "VPRK", "VPRM", "VIPT"),
    /** Push-back / tow records: time, in or out, stand. */
    PSHT("PSHN", Group.RECORD, "PSTM", "PSID", "PUST"),
    /** Towing records: time, stand. The contract names no sequence attribute; ours is {@code TPNO} (D-55). */
    TIPT("TPNO", Group.RECORD, "TRTM", "TRST"),
    /**
     * The flight's extension document (sis-format v3 §10, decision D-120): every element, attribute and text of a
     * flight record or {@code FLOP} body that the model does not know, as {@code PATH} (relative to the record:
     * {@code XTRA}, {@code XTRA/@CODE}, {@code GTDT/@ZONE}) and {@code VALUE} (as sent; none for an empty one), in
     * document order. Not an element of any message: the codec fills it, and a record or body that carries anything
     * unknown replaces it as a whole, as a list is replaced; one that carries nothing unknown leaves it.
     */
    EXTENSIONS(null, Group.EXTENSION, "PATH", "VALUE");

    /** Where a list is stored: the eight resource tables, the route-point table, the record tables, the extensions. */
    public enum Group {
        RESOURCE,
        ROUTE,
        RECORD,
        /** {@link #EXTENSIONS}: what the model does not know, kept as data. */
        EXTENSION
    }

    private static final List<String> DELY_ATTRIBUTES = List.of("CODE", "STRT", "DURA");

    /**
     * The item and sub-item fields that hold a SIS time ({@code ddMMMyyHHmm}, airport local time): planned and actual
     * opening and closing times of the resources, first and last bag times of a carousel (sis-format v3 §10), route
     * times, record times, delay start, VIP service times.
     */
    private static final Set<String> TIME_ITEM_FIELDS = Set.of("PGOT", "PGCT", "GOTM", "GCTM", "PCOT", "PCCT", "COTM",
            "CCTM", "FBAG", "LBAG", "STST", "STET", "PCBT", "PCET", "CBTM", "CETM", "STRT", "AOTM", "CHTM", "SCAT", "SCDT",
            "ESAT", "ESDT", "ACAT", "ACDT", "SRST", "SRET", "SVTM", "PSTM", "TRTM", "VTST", "VTET");

    /** The item and sub-item fields that hold a count: service and VIP service quantities. */
    private static final Set<String> NUMBER_ITEM_FIELDS = Set.of("SRQT", "VTQY");

    /** The children of one {@code VIPT} (VIP service) item of a {@code VIPF} record: code, quantity, start, end. */
    private static final List<String> VIPT_FIELDS = List.of("VSCD", "VTQY", "VTST", "VTET");

    /** Longest value an item field holding nested items may carry: the width of its column. */
    public static final int MAX_NESTED_VALUE_LENGTH = 4000;

    private static final Map<String, FlightList> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(FlightList::code, Function.identity()));

    private final String sequenceAttribute;
    private final Group group;
    private final List<String> itemFields;
    private final Set<String> itemFieldSet;

    FlightList(String sequenceAttribute, Group group, String... itemFields) {
        this.sequenceAttribute = sequenceAttribute;
        this.group = group;
        this.itemFields = List.of(itemFields);
        this.itemFieldSet = Set.of(itemFields);
    }

    /** The element name of one item, e.g. {@code GTDT}. */
    public String code() {
        return name();
    }

    /** Whether the list is an element of messages; false for {@link #EXTENSIONS}, which the codec fills itself. */
    public boolean inMessages() {
        return group != Group.EXTENSION;
    }

    /** The attribute carrying the upstream sequence ({@code SOURCE_SEQ}), e.g. {@code GTNO}; null for {@link #EXTENSIONS}. */
    public String sequenceAttribute() {
        return sequenceAttribute;
    }

    public Group group() {
        return group;
    }

    /** The item's fields by protocol code, in the order they are stored and published. */
    public List<String> itemFields() {
        return itemFields;
    }

    /**
     * The item fields the real form carries as attributes of the item element, in the order they are written:
     * {@code <DELY CODE="93" STRT="11MAR240835" DURA="0045">} (sis-format v2 §5). Read from attributes or child
     * elements alike; written as attributes.
     */
    public List<String> attributeFields() {
        return this == DELY ? DELY_ATTRIBUTES : List.of();
    }

    /** The item field the item element's own text carries ({@code DESC} of {@code DELY}), if any. */
    public Optional<String> textField() {
        return this == DELY ? Optional.of("DESC") : Optional.empty();
    }

    /**
     * The item fields that hold repeated sub-items rather than one value, each with the sub-item's fields: on
     * {@code VIPF}, {@code VIPT → [VSCD, VTQY, VTST, VTET]} (sis-format v3 §10). Such a field's value is the sub-items
     * as a JSON array of objects, in document order (decision D-117); empty for every other list.
     */
    public Map<String, List<String>> nestedItems() {
        return this == VIPF ? Map.of("VIPT", VIPT_FIELDS) : Map.of();
    }

    /** The longest value {@code code} may carry: {@link #MAX_NESTED_VALUE_LENGTH} for nested items, else a scalar's. */
    public int maxValueLength(String code) {
        return nestedItems().containsKey(code) || this == EXTENSIONS ? MAX_NESTED_VALUE_LENGTH : FlightField.MAX_VALUE_LENGTH;
    }

    /**
     * What kind of text an item field or a nested sub-item field holds, by its code ({@code PGOT} → TIME,
     * {@code SRQT} → NUMBER, {@code GATE} → TEXT). Like {@link FlightField#kind()} it never rejects a value; it says how
     * the value is published (docs/consumers.md). A code means the same in every list that carries it.
     */
    public static FlightField.Kind itemKind(String code) {
        if (TIME_ITEM_FIELDS.contains(code)) {
            return FlightField.Kind.TIME;
        }
        return NUMBER_ITEM_FIELDS.contains(code) ? FlightField.Kind.NUMBER : FlightField.Kind.TEXT;
    }

    /** Whether {@code code} is one of {@link #itemFields()}. */
    public boolean hasItemField(String code) {
        return itemFieldSet.contains(code);
    }

    /** The list of messages an element names ({@code GTDT}); empty for any other name, {@link #EXTENSIONS}'s too. */
    public static Optional<FlightList> byCode(String code) {
        return Optional.ofNullable(BY_CODE.get(code)).filter(FlightList::inMessages);
    }
}
