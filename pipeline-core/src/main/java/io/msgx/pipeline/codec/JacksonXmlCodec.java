package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The SIS codec on the XML stack jackson-dataformat-xml brings: its Woodstox StAX parser, locked down
 * ({@link XmlTreeReader}), streams the document into a small element tree that is then mapped by the rules
 * of {@link XmlCodec}. Jackson's data binding is deliberately not used: it would lose element order,
 * repeated elements and the difference between an absent and an empty element, which the contract depends
 * on. Thread-safe; build one and share it.
 */
public final class JacksonXmlCodec implements XmlCodec {

    private static final Logger LOG = LoggerFactory.getLogger(JacksonXmlCodec.class);

    private final CodecLimits limits;
    private final XmlTreeReader treeReader;
    private final Function<XmlElement, DecodeResult.Decoded> messageReader;
    private final SisMessageWriter writer = new SisMessageWriter();

    /** Default limits and the default reference types ({@link MsgKind#DEFAULT_REFERENCE_TYPES}). */
    public JacksonXmlCodec() {
        this(CodecLimits.DEFAULTS, MsgKind.DEFAULT_REFERENCE_TYPES);
    }

    /**
     * @param referenceTypes the {@code TYPE}s read as reference messages ({@link ReferenceAction}); case-insensitive;
     *                       {@code SCHD}, {@code FLOP} and {@code FDEL} are refused
     */
    public JacksonXmlCodec(CodecLimits limits, Set<String> referenceTypes) {
        this(limits, new SisMessageReader(normalised(referenceTypes)));
    }

    /** The seam for tests: another mapping from the parsed tree to a message. */
    JacksonXmlCodec(CodecLimits limits, Function<XmlElement, DecodeResult.Decoded> messageReader) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.treeReader = new XmlTreeReader(limits);
        this.messageReader = Objects.requireNonNull(messageReader, "messageReader");
    }

    private static Set<String> normalised(Set<String> referenceTypes) {
        Set<String> types = referenceTypes.stream()
                .map(type -> type.trim().toUpperCase(Locale.ROOT))
                .collect(Collectors.toUnmodifiableSet());
        if (types.stream().anyMatch(type -> type.isEmpty() || MsgKind.FLIGHT_TYPES.contains(type))) {
            throw new IllegalArgumentException("reference types must not be blank nor SCHD, FLOP, FDEL: " + referenceTypes);
        }
        return types;
    }

    @Override
    public DecodeResult decode(String xml) {
        if (xml == null || xml.isBlank()) {
            return new DecodeResult.Malformed("empty message: no XML at all");
        }
        long bytes = utf8Length(xml);
        if (bytes > limits.maxMessageBytes()) {
            return new DecodeResult.Malformed("message is " + bytes + " bytes (UTF-8), over the limit of "
                    + limits.maxMessageBytes() + "; refused before parsing");
        }
        XmlElement root = null;
        try {
            root = treeReader.read(xml);
            return messageReader.apply(root);
        } catch (MalformedMessage e) {
            return new DecodeResult.Malformed(e.getMessage());
        } catch (RuntimeException e) {
            String phase = root == null ? "parsing" : "mapping a well-formed message";
            LOG.error("codec defect while {}; report it with the message text", phase, e);
            return new DecodeResult.CodecError(e.getClass().getName() + " while " + phase + ": " + e.getMessage());
        }
    }

    @Override
    public Peek peek(String xml) {
        return Peek.scan(xml);
    }

    @Override
    public String encode(MessageMeta meta, FlightMessage message) {
        return writer.write(Objects.requireNonNull(meta, "meta"), Objects.requireNonNull(message, "message"));
    }

    @Override
    public String encode(MessageMeta meta, ReferenceAnswer answer) {
        return writer.write(Objects.requireNonNull(meta, "meta"), Objects.requireNonNull(answer, "answer"));
    }

    private static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
