package io.msgx.pipeline.codec;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.exc.WstxLazyException;
import com.ctc.wstx.stax.WstxInputFactory;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Streams a document with Woodstox into an {@link XmlElement} tree, refusing what the codec refuses.
 *
 * <p>The factory is locked down: no DTD support, no external entities, a resolver that refuses every
 * external resource, no namespace processing ({@code xsi:} attributes need no declaration), and Woodstox's
 * own limits as a backstop one step beyond ours, so that our reasons (depth, text length) are the ones
 * reported. A {@code DOCTYPE} is refused as soon as it is seen, before any entity it declares can be used.
 * Without a DTD only the five predefined entities and character references exist; any other reference is
 * an undeclared entity and not well-formed.
 */
final class XmlTreeReader {

    private final CodecLimits limits;
    private final XMLInputFactory factory;

    XmlTreeReader(CodecLimits limits) {
        this.limits = limits;
        this.factory = lockedDownFactory(limits);
    }

    private static XMLInputFactory lockedDownFactory(CodecLimits limits) {
        XMLInputFactory factory = new WstxInputFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, true);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        factory.setProperty(XMLInputFactory.IS_VALIDATING, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        factory.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external resource refused: " + systemId);
        });
        factory.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, limits.maxElementDepth() + 1);
        factory.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, limits.maxTextLength() + 1);
        factory.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, limits.maxTextLength());
        factory.setProperty(WstxInputProperties.P_MAX_CHARACTERS, (long) limits.maxMessageBytes());
        factory.setProperty(WstxInputProperties.P_MAX_ENTITY_COUNT, 1);
        factory.setProperty(WstxInputProperties.P_MAX_ENTITY_DEPTH, 1);
        factory.setProperty(WstxInputProperties.P_MAX_DTD_DEPTH, 1);
        return factory;
    }

    /** The root element of the document; malformed when the text is not an acceptable XML document. */
    XmlElement read(String xml) {
        XMLStreamReader reader = null;
        try {
            reader = factory.createXMLStreamReader(new StringReader(xml));
            return readRoot(reader);
        } catch (XMLStreamException e) {
            throw notWellFormed(e);
        } catch (WstxLazyException e) { // a parse error surfacing late, from getText()
            throw notWellFormed(e.getCause());
        } finally {
            close(reader);
        }
    }

    private XmlElement readRoot(XMLStreamReader reader) throws XMLStreamException {
        Deque<OpenElement> open = new ArrayDeque<>();
        XmlElement root = null;
        while (reader.hasNext()) {
            switch (reader.next()) {
                case XMLStreamConstants.DTD -> throw new MalformedMessage("DOCTYPE not allowed");
                case XMLStreamConstants.START_ELEMENT -> {
                    if (open.size() >= limits.maxElementDepth()) {
                        throw new MalformedMessage("element nesting deeper than " + limits.maxElementDepth()
                                + " levels at <" + reader.getLocalName() + ">");
                    }
                    open.push(new OpenElement(reader));
                }
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    if (!open.isEmpty()) {
                        open.peek().append(reader.getText(), limits.maxTextLength());
                    }
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    XmlElement done = open.pop().close();
                    if (open.isEmpty()) {
                        root = done;
                    } else {
                        open.peek().children.add(done);
                    }
                }
                default -> {
                    // prolog, comments, processing instructions: nothing to keep
                }
            }
        }
        if (root == null) {
            throw new MalformedMessage("not well-formed XML: no root element");
        }
        return root;
    }

    /**
     * Woodstox checks characters as it decodes bytes, but a {@code String} arrives decoded: an unpaired surrogate
     * (text that was never valid Unicode), U+FFFE or U+FFFF would pass, and so would a C0 control written as a
     * character reference under an {@code <?xml version="1.1"?>} prolog. None of them is an XML 1.0 character,
     * the encoder refuses to write them, and the stores would keep them mangled; so a value carrying one is
     * malformed.
     */
    private static void refuseNonXmlCharacters(String text, String what, String element) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (!(c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD)) {
                throw new MalformedMessage(what + " of <" + element + "> contains U+" + String.format("%04X", (int) c)
                        + ", which XML 1.0 does not allow");
            }
        }
    }

    private static MalformedMessage notWellFormed(Throwable e) {
        String detail = String.valueOf(e.getMessage()).replaceAll("\\s+", " ").trim();
        return new MalformedMessage("not well-formed XML: " + detail);
    }

    private static void close(XMLStreamReader reader) {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException ignored) {
                // a StringReader holds nothing to release
            }
        }
    }

    /** An element whose end tag has not been read yet. */
    private static final class OpenElement {
        private final String name;
        private final Map<String, String> attributes = new LinkedHashMap<>();
        private final StringBuilder text = new StringBuilder();
        private int countedLength;
        private final List<XmlElement> children = new ArrayList<>();

        OpenElement(XMLStreamReader reader) {
            this.name = reader.getLocalName();
            for (int i = 0; i < reader.getAttributeCount(); i++) {
                String value = reader.getAttributeValue(i);
                refuseNonXmlCharacters(value, "attribute " + reader.getAttributeLocalName(i), name);
                attributes.put(reader.getAttributeLocalName(i), value);
            }
        }

        /** Whitespace-only runs (indentation between elements) do not count toward the limit. */
        void append(String chars, int maxTextLength) {
            refuseNonXmlCharacters(chars, "text", name);
            if (!chars.isBlank()) {
                countedLength += chars.length();
                if (countedLength > maxTextLength) {
                    throw new MalformedMessage("text of <" + name + "> is longer than " + maxTextLength + " characters");
                }
            }
            text.append(chars);
        }

        XmlElement close() {
            return new XmlElement(name, attributes, text.toString(), children);
        }
    }
}
