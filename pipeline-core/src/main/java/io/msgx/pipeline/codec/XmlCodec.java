package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightMessage;

import java.util.List;

/**
 * Reads and writes SIS XML messages (docs: sis-format.md). Decoding never throws: every outcome is a
 * {@link DecodeResult}.
 *
 * <h2>Envelope</h2>
 * <ul>
 *   <li>The root is {@code MSG}; an {@code <?xml?>} prolog, comments and attributes on {@code MSG}
 *       ({@code xsi:...}) are ignored. Element names are matched exactly, in upper case; names are not
 *       namespace-resolved, so a prefixed element ({@code x:FLID}) is simply unknown.</li>
 *   <li>Unknown elements are not an error (forward compatible); in a flight message each one, and each attribute or
 *       text no field takes, is named in {@link DecodeResult.Decoded#unmapped()} (docs/codec.md).</li>
 *   <li>{@code META} is required, once, with non-empty {@code SNDR}, {@code TYPE}, {@code STYP}, {@code SEQN}
 *       and {@code DTTM} ({@code yyyyMMddHHmmss}, airport local); {@code DDTM} is accepted as its alias, and
 *       {@code DTTM} wins when both are present. {@code RCVR} and {@code RQSN} are optional (empty = absent).
 *       Any of these twice is malformed. Texts are trimmed; {@code TYPE}/{@code STYP} are upper-cased.</li>
 *   <li>The kind follows from {@code TYPE}/{@code STYP} ({@link MsgKind}). The body is the child of
 *       {@code MSG} named after {@code TYPE}; a Fdel accepts an {@code FDEL} or a {@code FLOP} body (the one
 *       named after {@code TYPE} first). A missing body is malformed ("payload missing"); a body twice too.
 *       An Unsupported message has no payload and its body is not read.</li>
 * </ul>
 *
 * <h2>Flight records ({@code FLTR} of a {@code SCHD}, the {@code FLOP} body)</h2>
 * <ul>
 *   <li>{@code RECS} → declared count; absent → null; present but not an integer (also empty) → malformed.</li>
 *   <li>{@code FLID} → the trimmed text; missing → null; empty stays empty (the domain judges it).</li>
 *   <li>Every element that carries {@code FlightField}s ({@code FlightField.carriedBy}) is read once: a second one is
 *       malformed. A bare one (no attribute, child or text) clears every field it carries ({@code <STND/>},
 *       {@code <FDIV/>} clears {@code FDIV}, {@code FDIV_DDES}, {@code FDIV_DDIR}, {@code <PORT/>} both {@code PORT_*}).
 *       Otherwise its own field ({@code STND}, {@code FDIV}) → {@code FieldChange.of(trimmed text)}; its attributes
 *       naming an attribute field ({@code DDES} → {@code FDIV_DDES}) and its children naming a child field
 *       ({@code POTM} → {@code PORT_POTM}) → {@code FieldChange.of(trimmed value)}, empty = clear, absent = nothing.
 *       A value longer than {@code FlightField.MAX_VALUE_LENGTH} is malformed. Time texts are not validated here.</li>
 *   <li>An exception field ({@code FDIV}, {@code FRET}, {@code FLAB}) with child elements →
 *       {@code CHILD=value} pairs joined by {@code ;} in document order, an empty child giving
 *       {@code CHILD=}; without child elements, its text. Other scalars take their own text only.</li>
 *   <li>Every occurrence of a known {@code FlightList} element is one item, in document order:
 *       {@code sourceSeq} from its sequence attribute ({@code GTNO}...; missing, blank or not an integer → null, the
 *       last also named unmapped); values from its other attributes and its child elements named in
 *       {@code itemFields()}, and from its text for the list's {@code textField()} ({@code DESC} of {@code DELY});
 *       empty ones omitted, one twice → malformed, longer than the value limit → malformed.</li>
 *   <li>An occurrence with neither attributes, child elements nor text ({@code <GTDT/>}) is a clear marker: when
 *       every occurrence of a list is one, the list is present and empty; markers next to real items are
 *       ignored.</li>
 * </ul>
 *
 * <h2>Reference messages (sis-format §6; docs/reference-data.md)</h2>
 * A configured reference type with {@code STYP} {@code DNLD}, {@code RESP}, {@code ADD}, {@code UPD} or {@code DEL}
 * ({@link ReferenceAction}). Records are the elements named after {@code TYPE} directly under {@code MSG}; the version-1
 * form of one (or more) {@code <GATE>} containers whose {@code <GATE>} children are the records is still read (a
 * {@code <GATE>} is a container when it has a {@code <GATE>} child that itself has child elements, or no child element
 * at all). {@code RECS} directly under {@code MSG} → declared count (not an integer → malformed); neither {@code RECS}
 * nor a record → malformed (payload missing). A record's key is its first child element's trimmed text (no child or
 * empty → malformed). The record is kept whole as a {@link ReferenceDocument} (repeats, attributes, children; decision
 * D-58). The children of {@code MSG} other than {@code META}, {@code RECS} and the records are the message's unmapped
 * paths ({@code MSG/NAME}).
 *
 * <h2>Hardening</h2>
 * A message over {@link CodecLimits#maxMessageBytes()} UTF-8 bytes is refused before parsing. A DOCTYPE is
 * refused outright, so no DTD, internal or external entity is ever read; nesting deeper than
 * {@link CodecLimits#maxElementDepth()}, text longer than {@link CodecLimits#maxTextLength()}, a text or
 * attribute value with a character XML 1.0 does not allow (a control character, an unpaired surrogate,
 * U+FFFE, U+FFFF — however it got there), an empty or not well-formed document and a root other than
 * {@code MSG} are malformed.
 *
 * <h2>Encoding</h2>
 * {@code encode} writes exactly that shape, compact, without prolog: {@code META} (SNDR, RCVR, SEQN, DTTM,
 * TYPE, STYP, RQSN), then the body; in a record {@code FLID}, the scalars, then the lists, in the enums'
 * order; a clear as an empty element, an empty list as one {@code <GTDT/>} marker, an item's sequence as its
 * attribute (an item with neither sequence nor values as {@code GTNO=""} so it is not read as a marker), the real
 * v2 forms for attribute- and child-borne values ({@code <FDIV DDES="HKG" DDIR="TO">WEATHER</FDIV>},
 * {@code <DELY CODE=".." STRT=".." DURA="..">desc</DELY>}, {@code <PORT><POTM/>..</PORT>}), an exception value made
 * of {@code CHILD=value} pairs as child elements. A patch the real form cannot say (a prefix field without its
 * exception's reason, the reason cleared alone while the exception has prefix fields) is refused. {@code decode(encode(m))} gives back
 * {@code m}; a message that could not survive that (a value with surrounding whitespace, over the value
 * limit, with characters XML 1.0 cannot carry, an item field the list does not have, a META that names
 * another kind than the message) is refused with {@link IllegalArgumentException}.
 */
public interface XmlCodec {

    DecodeResult decode(String xml);

    /**
     * What {@code xml} carries that the model does not map ({@link DecodeResult.Decoded#unmapped()}); empty when
     * everything is mapped or the text does not decode (then its reason tells what is wrong). For operators' views.
     */
    default List<String> unmappedIn(String xml) {
        return decode(xml) instanceof DecodeResult.Decoded decoded ? decoded.unmapped() : List.of();
    }

    /** TYPE and STYP by a text scan that works on any text, well-formed or not. */
    Peek peek(String xml);

    /** The XML of a flight message; {@code meta}'s TYPE/STYP must name the message's kind. */
    String encode(MessageMeta meta, FlightMessage message);

    /** The XML of a reference message; {@code meta} must be {@code TYPE=<reference type>}, {@code STYP=<its action>}. */
    String encode(MessageMeta meta, ReferenceAnswer answer);
}
