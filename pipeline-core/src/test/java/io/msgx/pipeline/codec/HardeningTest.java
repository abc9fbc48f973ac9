package io.msgx.pipeline.codec;

import org.junit.jupiter.api.Test;

import static io.msgx.pipeline.codec.CodecFixtures.decoded;
import static io.msgx.pipeline.codec.CodecFixtures.malformed;
import static io.msgx.pipeline.codec.CodecFixtures.meta;
import static org.assertj.core.api.Assertions.assertThat;

/** Each attack ends Malformed, with a reason that says why. */
class HardeningTest {

    private static final String BODY = meta("FLOP", "REMC") + "<FLOP><FLID>1001</FLID><REMC>&xxe;</REMC></FLOP>";

    @Test
    void doctypeIsRefusedOutright() {
        assertThat(malformed("<?xml version=\"1.0\"?><!DOCTYPE MSG><MSG>" + meta("FLOP", "STND") + "</MSG>"))
                .isEqualTo("DOCTYPE not allowed");
    }

    @Test
    void externalEntityIsRefused() {
        String xxe = "<?xml version=\"1.0\"?><!DOCTYPE MSG [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]><MSG>" + BODY + "</MSG>";

        assertThat(malformed(xxe)).isEqualTo("DOCTYPE not allowed");
    }

    @Test
    void externalDtdIsRefusedWithoutBeingFetched() {
        String xml = "<!DOCTYPE MSG SYSTEM \"http://127.0.0.1:1/evil.dtd\"><MSG>" + meta("FLOP", "STND") + "</MSG>";

        assertThat(malformed(xml)).isEqualTo("DOCTYPE not allowed");
    }

    @Test
    void parameterEntityIsRefused() {
        String xml = "<!DOCTYPE MSG [<!ENTITY % remote SYSTEM \"file:///etc/passwd\"> %remote;]><MSG>" + BODY + "</MSG>";

        assertThat(malformed(xml)).isEqualTo("DOCTYPE not allowed");
    }

    @Test
    void billionLaughsIsRefused() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE MSG [<!ENTITY lol0 \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"");
            dtd.append(("&lol" + (i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>");
        String xml = dtd + "<MSG>" + meta("FLOP", "REMC") + "<FLOP><FLID>1</FLID><REMC>&lol9;</REMC></FLOP></MSG>";

        assertThat(malformed(xml)).isEqualTo("DOCTYPE not allowed");
    }

    @Test
    void anUndeclaredEntityWithoutDoctypeIsNotWellFormed() {
        assertThat(malformed("<MSG>" + BODY + "</MSG>"))
                .startsWith("not well-formed XML: ")
                .contains("xxe");
    }

    @Test
    void predefinedEntitiesAndCharacterReferencesStillWork() {
        String remarks = "&amp;&lt;&gt;&quot;&apos;&#x4E2D;&#22269;".repeat(5_000);
        var codec = new JacksonXmlCodec(new CodecLimits(CodecLimits.DEFAULTS.maxMessageBytes(), 32, 1_000_000),
                MsgKind.DEFAULT_REFERENCE_TYPES);
        var result = codec.decode("<MSG>" + meta("GATE", "RESP") + "<GATE><GTCD>G1</GTCD><DESC>" + remarks + "</DESC></GATE></MSG>");

        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
        var answer = ((DecodeResult.Decoded) result).message().referenceAnswer().orElseThrow();
        assertThat(answer.records().get(0).document().texts().get("DESC")).isEqualTo("&<>\"'中国".repeat(5_000));
    }

    @Test
    void messageOverTheSizeLimitIsRefusedBeforeParsing() {
        var codec = new JacksonXmlCodec(new CodecLimits(1_000, 32, 500), MsgKind.DEFAULT_REFERENCE_TYPES);
        // 400 CJK characters are 1,200 UTF-8 bytes, and the text is not even XML: it must not be parsed.
        String oversized = "<MSG" + "中".repeat(400);

        var result = codec.decode(oversized);

        assertThat(result).isEqualTo(new DecodeResult.Malformed(
                "message is 1204 bytes (UTF-8), over the limit of 1000; refused before parsing"));
    }

    @Test
    void defaultSizeLimitIsTwoMebibytes() {
        String filler = "<X>" + "a".repeat(60_000) + "</X>";
        String xml = "<MSG>" + meta("LDM", "X") + filler.repeat(35) + "</MSG>";

        assertThat(xml.length()).isGreaterThan(2 * 1024 * 1024);
        assertThat(malformed(xml)).startsWith("message is " + xml.length() + " bytes (UTF-8), over the limit of 2097152");
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        String deep = "<X>".repeat(40) + "</X>".repeat(40);

        assertThat(malformed("<MSG>" + meta("LDM", "X") + deep + "</MSG>"))
                .isEqualTo("element nesting deeper than 32 levels at <X>");
    }

    @Test
    void nestingUpToTheLimitIsAccepted() {
        String deep = "<X>".repeat(31) + "</X>".repeat(31);

        assertThat(decoded("<MSG>" + meta("LDM", "X") + deep + "</MSG>").kind())
                .isEqualTo(new MsgKind.Unsupported("LDM", "X"));
    }

    @Test
    void textOverTheLimitIsRefused() {
        var codec = new JacksonXmlCodec(new CodecLimits(1_000_000, 32, 100), MsgKind.DEFAULT_REFERENCE_TYPES);

        var result = codec.decode("<MSG>" + meta("LDM", "X") + "<LDM>" + "x".repeat(101) + "</LDM></MSG>");

        assertThat(result).isEqualTo(new DecodeResult.Malformed("text of <LDM> is longer than 100 characters"));
    }

    @Test
    void indentationBetweenElementsDoesNotCountTowardTheTextLimit() {
        var codec = new JacksonXmlCodec(new CodecLimits(1_000_000, 32, 100), MsgKind.DEFAULT_REFERENCE_TYPES);
        String records = "\n        <FLTR><FLID>1</FLID></FLTR>".repeat(50);

        var result = codec.decode("<MSG>" + meta("SCHD", "DNLD") + "<SCHD>" + records + "\n</SCHD></MSG>");

        assertThat(result).isInstanceOf(DecodeResult.Decoded.class);
    }

    @Test
    void notWellFormedXmlIsMalformed() {
        assertThat(malformed("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1</FLOP></MSG>"))
                .startsWith("not well-formed XML: ")
                .contains("FLID");
        assertThat(malformed("<MSG>" + meta("FLOP", "STND") + "<FLOP><FLID>1</FLID></FLOP>"))
                .startsWith("not well-formed XML: ");
        assertThat(malformed("<MSG>" + meta("FLOP", "STND") + "</MSG><MSG/>"))
                .startsWith("not well-formed XML: ");
        assertThat(malformed("just text")).startsWith("not well-formed XML: ");
    }

    @Test
    void emptyMessageIsMalformed() {
        assertThat(malformed("")).isEqualTo("empty message: no XML at all");
        assertThat(malformed("  \n ")).isEqualTo("empty message: no XML at all");
        assertThat(malformed(null)).isEqualTo("empty message: no XML at all");
    }

    @Test
    void rootOtherThanMsgIsMalformed() {
        assertThat(malformed("<MESSAGE>" + meta("FLOP", "STND") + "</MESSAGE>")).isEqualTo("root element is <MESSAGE>, not <MSG>");
        assertThat(malformed("<msg>" + meta("FLOP", "STND") + "</msg>")).isEqualTo("root element is <msg>, not <MSG>");
    }
}
