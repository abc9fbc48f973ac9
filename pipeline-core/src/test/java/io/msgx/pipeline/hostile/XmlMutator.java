package io.msgx.pipeline.hostile;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Damages valid SIS messages the ways a broken or hostile sender could: bytes and characters, structure,
 * values, kinds, entities, nesting, size. Deterministic: {@link #mutant(long)} depends only on the base seed
 * and the index, so a failure names its seed and index and is reproduced by running again with them.
 *
 * <p>Invalid UTF-8 cannot reach the codec as bytes: the mailbox port hands over text, which the MariaDB driver
 * decodes, turning every malformed byte sequence into U+FFFD. The byte-level mutations therefore damage the
 * UTF-8 bytes and decode them the way the driver does ({@code new String(bytes, UTF_8)}); the character-level
 * ones put in what a lenient decoder or an HTTP caller could still produce (unpaired surrogates, U+FFFE).
 */
final class XmlMutator {

    /** One way of damaging a message. */
    enum Mutation {
        BIT_FLIP, BYTE_NOISE, INVALID_UTF8, UNICODE_HAZARD, CONTROL_CHAR, TRUNCATE, DELETE_RANGE, SPLICE,
        DUPLICATE_ELEMENT, REMOVE_ELEMENT, MOVE_ELEMENT, RENAME_ELEMENT, RANDOM_VALUE, HUGE_VALUE, WRONG_DATE,
        UNKNOWN_KIND, ENTITY, DEEP_NESTING, ATTRIBUTE_NOISE, MARKUP_NOISE, RECS_AND_FLID, WHITESPACE
    }

    /** A mutated message and how it came about. */
    record Mutant(long index, int seedIndex, List<Mutation> mutations, String xml) {

        /** What a failure report prints: enough to find the mutant again and to read it. */
        String describe(long baseSeed) {
            String shown = xml.length() <= 3000 ? xml
                    : xml.substring(0, 2000) + " ...[" + (xml.length() - 2500) + " chars]... " + xml.substring(xml.length() - 500);
            return "mutant #" + index + " (msgx.fuzz.seed=" + baseSeed + ", seed message " + seedIndex + ", " + mutations
                    + ", " + xml.length() + " chars):\n" + escapeInvisible(shown);
        }
    }

    private static final Mutation[] MUTATIONS = Mutation.values();
    private static final int MAX_SCANNED_LENGTH = 100_000;

    private static final String[] KNOWN_NAMES = {"MSG", "META", "SNDR", "RCVR", "SEQN", "DTTM", "DDTM", "TYPE", "STYP",
            "RQSN", "SCHD", "FLOP", "FDEL", "FLTR", "RECS", "FLID", "SODT", "STND", "REMC", "GTDT", "GATE", "ROUT",
            "MAID", "FDIV", "DVAP", "GTCD", "LDM", "msg", "x:FLID", "FLTR2", "_"};
    private static final String[] TYPES = {"SCHD", "FLOP", "FDEL", "GATE", "STND", "LDM", "REGN", "EROR", "ZZZZ", "schd",
            "flop", " FLOP ", "", "SCHDX", "F\u00D6LOP", "AIRL", "DLYC"};
    private static final String[] SUBTYPES = {"DNLD", "RESP", "ADFT", "FDEL", "STND", "GTDT", "REMC", "CSHR", "RQST",
            "XXXX", "", "dnld", "stnd", "EXSS", "CNCL", "FDIV", "*", "DNLD DNLD"};
    private static final String[] BAD_DATES = {"20260230120000", "00000000000000", "99991231235959", "2026031122312",
            "202603112231260", "2026-03-11T22:31:26", "11MAR24", "31FEB240835", "11XXX240835", "11MAR242500",
            "11MAR246060", "-1", "", " ", "29FEB230000", "11MAR990835", "00JAN000000", "11mar240835", "١١MAR240835",
            "20240311060000", "11MAR240835"};
    private static final String[] INVALID_UTF8 = {"C0 80", "ED A0 80", "ED BF BF", "80", "BF", "E4 B8", "F0 9F 9A",
            "F8 88 80 80 80", "FC 84 80 80 80 80", "FE", "FF", "C1 BF", "E0 80 80", "F4 90 80 80", "EF BF BE", "C3"};
    private static final String[] DOCTYPES = {
            "<!DOCTYPE MSG>",
            "<!DOCTYPE MSG [<!ENTITY x \"boom\">]>",
            "<!DOCTYPE MSG [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>",
            "<!DOCTYPE MSG SYSTEM \"http://127.0.0.1:1/evil.dtd\">",
            "<!DOCTYPE MSG [<!ENTITY % p SYSTEM \"http://127.0.0.1:1/p.dtd\"> %p;]>",
            "<!DOCTYPE MSG [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
                    + "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY x \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>",
            "<!DOCTYPE MSG [<!ELEMENT MSG ANY><!ATTLIST MSG a CDATA \"d\">]>",
            "<!DOCTYPE MSG [<!ENTITY x \"<FLID>9</FLID>\">]>",
            "<!DOCTYPE MSG PUBLIC \"-//X//Y\" \"sis.dtd\">",
            "<!DOCTYPE MSG [",
    };
    private static final String[] ENTITY_REFS = {"&x;", "&xxe;", "&lol9;", "&amp", "&;", "&#;", "&#x;", "&#x110000;",
            "&#99999999999;", "&#-1;", "&#0;", "&#x1F680;", "&#xD800;", "&#xFFFE;", "&lt;", "&apos;", "&%p;", "%p;",
            "&#65;&#x42;", "&AMP;", "&nbsp;"};
    private static final String[] MARKUP = {"<!-- c -->", "<!--", "-->", "<!-- -- -->", "<?pi data?>", "<?xml version=\"1.0\"?>",
            "<![CDATA[x]]>", "<![CDATA[", "]]>", "<", ">", "&", "</>", "<>", "<a", "</MSG>", "<MSG>", "<MSG/>", "\"", "'",
            "<X/>", "<X></Y>", "<?", "<!", "<![CDATA[<FLID>9</FLID>]]>", "<!-- <FLID>9</FLID> -->"};
    private static final String[] ATTRIBUTES = {" a=\"1\"", " a=\"1\" a=\"2\"", " xmlns:x=\"urn:x\"", " x:y=\"1\"",
            " GTNO=\"abc\"", " GTNO=\"-1\"", " GTNO=\"99999999999\"", " GTNO=\"\"", " RTNO=\" 2 \"", " a=1", " a",
            " a=\"<\"", " a=\"&x;\"", " xmlns=\"urn:sis\"", " xsi:nil=\"true\"", " a='q\"q'"};

    private final long baseSeed;
    private final SeedCorpus corpus;

    XmlMutator(long baseSeed, SeedCorpus corpus) {
        this.baseSeed = baseSeed;
        this.corpus = corpus;
    }

    long baseSeed() {
        return baseSeed;
    }

    /**
     * Mutant number {@code index}: a seed message, mostly with a fresh {@code SEQN} (so it is not merely a business
     * duplicate of its seed), damaged by one to three mutations.
     */
    Mutant mutant(long index) {
        var random = new SplittableRandom(baseSeed ^ (index * 0x9E3779B97F4A7C15L));
        boolean duplicate = random.nextInt(20) == 0;
        // one in twenty is an opening message again, with its SEQN: a business duplicate unless the damage
        // changed its identity
        int seedIndex = duplicate ? random.nextInt(corpus.opening().size()) : random.nextInt(corpus.size());
        String seed = corpus.get(seedIndex);
        String xml = duplicate ? seed : seed.replaceFirst("<SEQN>[^<]*</SEQN>", "<SEQN>" + (100_000 + index) + "</SEQN>");
        int count = random.nextInt(10) < 6 ? 1 : random.nextInt(10) < 7 ? 2 : 3;
        var applied = new ArrayList<Mutation>(count);
        for (int i = 0; i < count; i++) {
            var mutation = pick(random);
            applied.add(mutation);
            xml = apply(mutation, xml, random);
        }
        return new Mutant(index, seedIndex, List.copyOf(applied), xml);
    }

    /** Uniform, except that the few huge messages (over 2 MiB) stay rare: they cost memory, not coverage. */
    private static Mutation pick(SplittableRandom random) {
        var mutation = MUTATIONS[random.nextInt(MUTATIONS.length)];
        return mutation == Mutation.HUGE_VALUE && random.nextInt(4) != 0 ? Mutation.RANDOM_VALUE : mutation;
    }

    String apply(Mutation mutation, String xml, SplittableRandom random) {
        if (xml.isEmpty()) {
            return xml;
        }
        return switch (mutation) {
            case BIT_FLIP -> bitFlip(xml, random);
            case BYTE_NOISE -> insertBytes(xml, random, randomBytes(random));
            case INVALID_UTF8 -> insertBytes(xml, random, hex(INVALID_UTF8[random.nextInt(INVALID_UTF8.length)]));
            case UNICODE_HAZARD -> insertAt(xml, random, unicodeHazard(random));
            case CONTROL_CHAR -> controlChar(xml, random);
            case TRUNCATE -> xml.substring(0, random.nextInt(xml.length()));
            case DELETE_RANGE -> deleteRange(xml, random);
            case SPLICE -> splice(xml, random);
            case DUPLICATE_ELEMENT -> element(xml, random).map(e -> e.insertAfterItself(xml, xml.substring(e.start, e.end))).orElse(xml);
            case REMOVE_ELEMENT -> element(xml, random).map(e -> xml.substring(0, e.start) + xml.substring(e.end)).orElse(xml);
            case MOVE_ELEMENT -> moveElement(xml, random);
            case RENAME_ELEMENT -> renameElement(xml, random);
            case RANDOM_VALUE -> leaf(xml, random).map(e -> e.withText(xml, randomValue(random))).orElse(xml);
            case HUGE_VALUE -> hugeValue(xml, random);
            case WRONG_DATE -> wrongDate(xml, random);
            case UNKNOWN_KIND -> unknownKind(xml, random);
            case ENTITY -> entity(xml, random);
            case DEEP_NESTING -> deepNesting(xml, random);
            case ATTRIBUTE_NOISE -> attributeNoise(xml, random);
            case MARKUP_NOISE -> insertAtBoundary(xml, random, MARKUP[random.nextInt(MARKUP.length)]);
            case RECS_AND_FLID -> recsAndFlid(xml, random);
            case WHITESPACE -> insertAt(xml, random, new String[]{" ", "\n", "\t", "\r\n", "\r", "  \n\t "}[random.nextInt(6)]);
        };
    }

    // ------------------------------------------------------------------ bytes and characters

    private static String bitFlip(String xml, SplittableRandom random) {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        int flips = 1 + random.nextInt(3);
        for (int i = 0; i < flips; i++) {
            int at = random.nextInt(bytes.length);
            bytes[at] ^= (byte) (1 << random.nextInt(8));
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] randomBytes(SplittableRandom random) {
        byte[] bytes = new byte[1 + random.nextInt(4)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        return bytes;
    }

    /** Damaged bytes in the UTF-8 form, decoded back as the mailbox driver decodes them. */
    private static String insertBytes(String xml, SplittableRandom random, byte[] insert) {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        int at = random.nextInt(bytes.length + 1);
        byte[] out = new byte[bytes.length + insert.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(bytes, at, out, at + insert.length, bytes.length - at);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static byte[] hex(String spaced) {
        var parts = spaced.split(" ");
        byte[] bytes = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return bytes;
    }

    private static String unicodeHazard(SplittableRandom random) {
        return new String[]{"\uD800", "\uDC00", "\uDBFF\uDBFF", "\uFFFE", "\uFFFF", "\uFEFF", "\u202E", "\u0301",
                "\uD83D\uDE80", "\uFFFD", "\u2028", "\u00A0", "中文", "\uDE80\uD83D"}[random.nextInt(14)];
    }

    private static String controlChar(String xml, SplittableRandom random) {
        int code = new int[]{0, 1, 7, 8, 11, 12, 27, 31, 127, 0x85, 0x9F, 9, 10, 13}[random.nextInt(14)];
        String text = switch (random.nextInt(3)) {
            case 0 -> String.valueOf((char) code);
            case 1 -> "&#" + code + ";";
            default -> "&#x" + Integer.toHexString(code) + ";";
        };
        return random.nextBoolean()
                ? leaf(xml, random).map(e -> e.withText(xml, e.text(xml) + text)).orElse(insertAt(xml, random, text))
                : insertAt(xml, random, text);
    }

    private static String insertAt(String xml, SplittableRandom random, String text) {
        int at = random.nextInt(xml.length() + 1);
        return xml.substring(0, at) + text + xml.substring(at);
    }

    /** Insert just before a {@code <}, where markup goes. */
    private static String insertAtBoundary(String xml, SplittableRandom random, String text) {
        var boundaries = new ArrayList<Integer>();
        for (int i = 0; i < xml.length(); i++) {
            if (xml.charAt(i) == '<') {
                boundaries.add(i);
            }
        }
        boundaries.add(xml.length());
        int at = boundaries.get(random.nextInt(boundaries.size()));
        return xml.substring(0, at) + text + xml.substring(at);
    }

    private static String deleteRange(String xml, SplittableRandom random) {
        int from = random.nextInt(xml.length());
        int to = Math.min(xml.length(), from + 1 + random.nextInt(20));
        return xml.substring(0, from) + xml.substring(to);
    }

    // ------------------------------------------------------------------ structure

    private String splice(String xml, SplittableRandom random) {
        String donor = corpus.get(random.nextInt(corpus.size()));
        return element(donor, random).map(e -> insertAtBoundary(xml, random, donor.substring(e.start, e.end))).orElse(xml);
    }

    private static String moveElement(String xml, SplittableRandom random) {
        return element(xml, random).map(e -> {
            String piece = xml.substring(e.start, e.end);
            return insertAtBoundary(xml.substring(0, e.start) + xml.substring(e.end), random, piece);
        }).orElse(xml);
    }

    private static String renameElement(String xml, SplittableRandom random) {
        return element(xml, random).map(e -> {
            String name = KNOWN_NAMES[random.nextInt(KNOWN_NAMES.length)];
            boolean both = random.nextInt(3) != 0;
            String renamed = xml.substring(0, e.start + 1) + name + xml.substring(e.start + 1 + e.name.length());
            if (!both || e.selfClosing) {
                return renamed;
            }
            int shift = name.length() - e.name.length();
            int endTag = e.end + shift - e.name.length() - 1;
            return renamed.substring(0, endTag) + name + renamed.substring(endTag + e.name.length());
        }).orElse(xml);
    }

    private static String deepNesting(String xml, SplittableRandom random) {
        int depth = new int[]{5, 30, 31, 32, 33, 100, 5_000, 100_000}[random.nextInt(8)];
        String name = random.nextBoolean() ? "X" : "FLTR";
        return element(xml, random).filter(e -> !e.selfClosing).map(e -> {
            var sb = new StringBuilder(xml.length() + depth * (2 * name.length() + 5));
            sb.append(xml, 0, e.contentStart);
            sb.append(("<" + name + ">").repeat(depth));
            sb.append(xml, e.contentStart, e.contentEnd);
            sb.append(("</" + name + ">").repeat(depth));
            sb.append(xml, e.contentEnd, xml.length());
            return sb.toString();
        }).orElse(xml);
    }

    private static String attributeNoise(String xml, SplittableRandom random) {
        return element(xml, random).map(e -> {
            int at = e.start + 1 + e.name.length();
            String attribute = random.nextInt(10) == 0
                    ? " a=\"" + "v".repeat(70_000) + "\""
                    : ATTRIBUTES[random.nextInt(ATTRIBUTES.length)];
            return xml.substring(0, at) + attribute + xml.substring(at);
        }).orElse(xml);
    }

    // ------------------------------------------------------------------ values, kinds, entities, size

    private static String randomValue(SplittableRandom random) {
        return switch (random.nextInt(16)) {
            case 0 -> "";
            case 1 -> "   ";
            case 2 -> Long.toString(random.nextLong());
            case 3 -> "-" + random.nextInt(1000);
            case 4 -> "99999999999999999999999999";
            case 5 -> "x".repeat(500 + random.nextInt(30));
            case 6 -> "中".repeat(1 + random.nextInt(600));
            case 7 -> "&lt;FLID&gt;1&lt;/FLID&gt;";
            case 8 -> "<![CDATA[" + "]]>" + "]]>";
            case 9 -> "1001";
            case 10 -> SeedCorpus.FLIDS.get(random.nextInt(SeedCorpus.FLIDS.size()));
            case 11 -> "\uD83D\uDE80 \u202E rtl";
            case 12 -> "DVAP=;;=;DVRM";
            case 13 -> "0";
            case 14 -> " 1002 ";
            default -> Integer.toString(random.nextInt(10));
        };
    }

    private static String hugeValue(String xml, SplittableRandom random) {
        int kind = random.nextInt(5);
        if (kind == 0) {
            // over the message limit: 2 MiB and a little more, of plain text inside a comment
            int at = Math.max(0, xml.indexOf("<MSG"));
            return xml.substring(0, at) + "<!--" + "x".repeat(2 * 1024 * 1024 + random.nextInt(100)) + "-->" + xml.substring(at);
        }
        if (kind == 1) {
            // many records: a big but legal message
            return element(xml, random).map(e -> e.insertAfterItself(xml, xml.substring(e.start, e.end).repeat(500 + random.nextInt(1500))))
                    .orElse(xml);
        }
        int length = new int[]{512, 513, 64 * 1024, 64 * 1024 + 1, 300_000}[random.nextInt(5)];
        String filler = random.nextBoolean() ? "y" : "\u00E9";
        return leaf(xml, random).map(e -> e.withText(xml, filler.repeat(length))).orElse(xml);
    }

    private static String wrongDate(String xml, SplittableRandom random) {
        String date = BAD_DATES[random.nextInt(BAD_DATES.length)];
        String element = new String[]{"DTTM", "SODT", "ESTT", "PGOT", "SCAT", "DDTM", "CNCL", "EOBT"}[random.nextInt(8)];
        String replaced = xml.replaceFirst("<" + element + ">[^<]*</" + element + ">",
                "<" + element + ">" + date + "</" + element + ">");
        if (!replaced.equals(xml)) {
            return replaced;
        }
        return element.equals("DDTM")
                ? xml.replaceFirst("<DTTM>", "<DDTM>" + date + "</DDTM><DTTM>")
                : xml.replaceFirst("<FLID>", "<" + element + ">" + date + "</" + element + "><FLID>");
    }

    private static String unknownKind(String xml, SplittableRandom random) {
        String result = xml;
        if (random.nextBoolean()) {
            result = result.replaceFirst("<TYPE>[^<]*</TYPE>", "<TYPE>" + TYPES[random.nextInt(TYPES.length)] + "</TYPE>");
        }
        if (random.nextBoolean() || result.equals(xml)) {
            result = result.replaceFirst("<STYP>[^<]*</STYP>", "<STYP>" + SUBTYPES[random.nextInt(SUBTYPES.length)] + "</STYP>");
        }
        return result;
    }

    private static String entity(String xml, SplittableRandom random) {
        if (random.nextBoolean()) {
            String doctype = DOCTYPES[random.nextInt(DOCTYPES.length)];
            int at = xml.indexOf("<MSG");
            at = at < 0 ? 0 : at;
            String withDoctype = xml.substring(0, at) + doctype + xml.substring(at);
            return random.nextBoolean() ? withDoctype
                    : leaf(withDoctype, random).map(e -> e.withText(withDoctype, "&x;")).orElse(withDoctype);
        }
        String reference = ENTITY_REFS[random.nextInt(ENTITY_REFS.length)];
        return leaf(xml, random).map(e -> e.withText(xml, e.text(xml) + reference)).orElse(insertAt(xml, random, reference));
    }

    private static String recsAndFlid(String xml, SplittableRandom random) {
        return switch (random.nextInt(6)) {
            case 0 -> xml.replaceFirst("<RECS>[^<]*</RECS>", "<RECS>" + new String[]{"0", "1", "99", "-1", "", "two", " 3 ",
                    "2147483648"}[random.nextInt(8)] + "</RECS>");
            case 1 -> xml.replaceFirst("<FLID>[^<]*</FLID>", "<FLID></FLID>");
            case 2 -> xml.replaceFirst("<FLID>[^<]*</FLID>", "<FLID>" + "9".repeat(33) + "</FLID>");
            case 3 -> xml.replaceFirst("<FLID>([^<]*)</FLID>", "<FLID>$1</FLID><FLID>$1</FLID>");
            case 4 -> xml.replaceFirst("<FLID>[^<]*</FLID>", "");
            default -> xml.replaceFirst("<FLID>[^<]*</FLID>", "<FLID>" + randomValue(random) + "</FLID>");
        };
    }

    // ------------------------------------------------------------------ finding elements

    /** An element's extent in the text: {@code <NAME ...>content</NAME>} or {@code <NAME .../>}. */
    private record Span(String name, int start, int contentStart, int contentEnd, int end, boolean selfClosing) {

        String text(String xml) {
            return xml.substring(contentStart, contentEnd);
        }

        String withText(String xml, String text) {
            if (selfClosing) {
                return xml.substring(0, end - 2) + ">" + text + "</" + name + ">" + xml.substring(end);
            }
            return xml.substring(0, contentStart) + text + xml.substring(contentEnd);
        }

        String insertAfterItself(String xml, String text) {
            return xml.substring(0, end) + text + xml.substring(end);
        }
    }

    /** A random element whose end tag can be found; empty when the text has none (it may be wrecked already). */
    private static Optional<Span> element(String xml, SplittableRandom random) {
        var spans = spans(xml, false);
        return spans.isEmpty() ? Optional.empty() : Optional.of(spans.get(random.nextInt(spans.size())));
    }

    /** A random element holding text only (or nothing): where values are. */
    private static Optional<Span> leaf(String xml, SplittableRandom random) {
        var spans = spans(xml, true);
        return spans.isEmpty() ? Optional.empty() : Optional.of(spans.get(random.nextInt(spans.size())));
    }

    /**
     * The elements of the text in one pass with a stack of open tags, tolerant of damage: an end tag closes the
     * nearest open element of its name, an end tag nobody opened is passed over.
     */
    private static List<Span> spans(String xml, boolean leavesOnly) {
        var spans = new ArrayList<Span>();
        if (xml.length() > MAX_SCANNED_LENGTH) {
            return spans; // not worth the time on a huge text; the mutation falls back to a blind one
        }
        record Open(String name, int start, int contentStart, boolean hasChildren) {
        }
        var open = new ArrayList<Open>();
        int at = xml.indexOf('<');
        while (at >= 0 && at < xml.length() - 1) {
            int tagEnd = xml.indexOf('>', at);
            if (tagEnd < 0) {
                break;
            }
            char first = xml.charAt(at + 1);
            if (first == '/') {
                String name = xml.substring(at + 2, tagEnd).strip();
                for (int i = open.size() - 1; i >= 0; i--) {
                    if (open.get(i).name().equals(name)) {
                        var element = open.get(i);
                        if (!leavesOnly || !element.hasChildren()) {
                            spans.add(new Span(name, element.start(), element.contentStart(), at, tagEnd + 1, false));
                        }
                        open.subList(i, open.size()).clear();
                        break;
                    }
                }
            } else if (Character.isLetter(first) || first == '_') {
                int nameEnd = at + 1;
                while (nameEnd < tagEnd && " \t\r\n/".indexOf(xml.charAt(nameEnd)) < 0) {
                    nameEnd++;
                }
                String name = xml.substring(at + 1, nameEnd);
                if (!open.isEmpty()) {
                    var parent = open.remove(open.size() - 1);
                    open.add(new Open(parent.name(), parent.start(), parent.contentStart(), true));
                }
                if (xml.charAt(tagEnd - 1) == '/') {
                    spans.add(new Span(name, at, tagEnd + 1, tagEnd + 1, tagEnd + 1, true));
                } else {
                    open.add(new Open(name, at, tagEnd + 1, false));
                }
            }
            at = xml.indexOf('<', tagEnd);
        }
        return spans;
    }

    /** Control characters and the like made visible, so a printed mutant can be read and copied. */
    static String escapeInvisible(String text) {
        var sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\n' && c != '\t' || c >= 0x7F && c <= 0x9F || Character.isSurrogate(c) || c >= 0xFFFE
                    || c == 0xFEFF || c == 0xFFFD || c == '\r') {
                sb.append(String.format("\\u%04X", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
