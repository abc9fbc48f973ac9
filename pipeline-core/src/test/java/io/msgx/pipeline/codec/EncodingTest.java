package io.msgx.pipeline.codec;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.codec.CodecFixtures.CODEC;
import static io.msgx.pipeline.codec.CodecFixtures.decoded;
import static io.msgx.pipeline.codec.CodecFixtures.fields;
import static io.msgx.pipeline.codec.CodecFixtures.item;
import static io.msgx.pipeline.codec.CodecFixtures.sentAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The exact shape {@code encode} writes, and what it refuses. */
class EncodingTest {

    @Test
    void scheduleInTheExactSisShape() {
        var meta = new MessageMeta("AODB", "RMS", "SCHD", "DNLD", "345935", sentAt(), null);
        var schedule = new ScheduleMessage(ScheduleKind.DNLD, 1, List.of(new FlightRecord("1001", new FlightPatch(
                fields(FlightField.FLNO, "CA1405", FlightField.STND, FieldChange.Cleared.INSTANCE),
                Map.of(FlightList.GTDT, List.of(item(1, "GTYP", "D", "GATE", "G28"), item(null, "GATE", "G<&>\"")),
                        FlightList.CKDT, List.of())))));

        assertThat(CODEC.encode(meta, schedule)).isEqualTo("<MSG><META><SNDR>AODB</SNDR><RCVR>RMS</RCVR><SEQN>345935</SEQN>"
                + "<DTTM>20260311223126</DTTM><TYPE>SCHD</TYPE><STYP>DNLD</STYP></META>"
                + "<SCHD><RECS>1</RECS><FLTR><FLID>1001</FLID><FLNO>CA1405</FLNO><STND/>"
                + "<GTDT GTNO=\"1\"><GATE>G28</GATE><GTYP>D</GTYP></GTDT><GTDT><GATE>G&lt;&amp;&gt;&quot;</GATE></GTDT>"
                + "<CKDT/></FLTR></SCHD></MSG>");
    }

    @Test
    void deletionAndResponseShapes() {
        var meta = new MessageMeta("AODB", null, "FLOP", "FDEL", "1", sentAt(), "99");

        assertThat(CODEC.encode(meta, new FlightDeletion("1001"))).isEqualTo("<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN>"
                + "<DTTM>20260311223126</DTTM><TYPE>FLOP</TYPE><STYP>FDEL</STYP><RQSN>99</RQSN></META>"
                + "<FLOP><FLID>1001</FLID></FLOP></MSG>");
    }

    @Test
    void referenceAnswerShape() {
        var meta = MessageMeta.of("AODB", "GATE", "RESP", "5", sentAt());
        var answer = new ReferenceAnswer("GATE", List.of(new ReferenceRecord("G28", Map.of("GTCD", "G28"))));

        assertThat(CODEC.encode(meta, answer)).endsWith("</META><GATE><GTCD>G28</GTCD></GATE></MSG>");
    }

    @Test
    void anItemWithNeitherSequenceNorValuesIsNotWrittenAsAClearMarker() {
        var operation = new FlightOperation(FlopSubtype.CHOT, "7", FlightPatch.empty()
                .with(FlightList.CHOT, List.of(new ListItem(null, Map.of()))));
        var meta = MessageMeta.of("AODB", "FLOP", "CHOT", "1", sentAt());

        String xml = CODEC.encode(meta, operation);

        assertThat(xml).contains("<CHOT CSNO=\"\"/>");
        assertThat(decoded(xml).flightMessage()).contains(operation);
    }

    @Test
    void controlCharactersAndCarriageReturnsSurvive() {
        var operation = new FlightOperation(FlopSubtype.REMC, "7", FlightPatch.empty()
                .with(FlightField.REMC, new FieldChange.SetTo("line one\r\nline\ttwo 中文 \uD83D\uDE80")));
        var meta = MessageMeta.of("AODB", "FLOP", "REMC", "1", sentAt());

        assertThat(decoded(CODEC.encode(meta, operation)).flightMessage()).contains(operation);
    }

    @Test
    void metaIsNormalised() {
        var meta = new MessageMeta(" AODB ", " ", "flop", "stnd", " 12 ", LocalDateTime.of(2026, 3, 11, 1, 2, 3, 999), "");

        assertThat(meta).isEqualTo(new MessageMeta("AODB", null, "FLOP", "STND", "12", LocalDateTime.of(2026, 3, 11, 1, 2, 3), null));
    }

    @Test
    void refusesWhatDecodingWouldNotGiveBack() {
        var meta = MessageMeta.of("AODB", "FLOP", "REMC", "1", sentAt());

        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(meta,
                        new FlightOperation(FlopSubtype.REMC, "7", FlightPatch.empty().with(FlightField.REMC, new FieldChange.SetTo(" x")))))
                .withMessage("FLOP: REMC ' x' has surrounding whitespace, which decoding would trim");
        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(meta,
                        new FlightOperation(FlopSubtype.REMC, "7", FlightPatch.empty().with(FlightField.REMC, new FieldChange.SetTo("a\u0001b")))))
                .withMessage("FLOP: REMC contains U+0001, which XML 1.0 cannot carry");
        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(meta,
                        new FlightOperation(FlopSubtype.REMC, "7", FlightPatch.empty().with(FlightField.REMC, new FieldChange.SetTo("x".repeat(513))))))
                .withMessage("FLOP: REMC is 513 characters, longer than 512");
        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(meta,
                        new FlightOperation(FlopSubtype.GTDT, "7", FlightPatch.empty().with(FlightList.GTDT, List.of(item(1, "CHKC", "1"))))))
                .withMessageContaining("META names TYPE=FLOP STYP=REMC");
        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(MessageMeta.of("AODB", "FLOP", "GTDT", "1", sentAt()),
                        new FlightOperation(FlopSubtype.GTDT, "7", FlightPatch.empty().with(FlightList.GTDT, List.of(item(1, "CHKC", "1"))))))
                .withMessage("FLOP: GTDT #1 carries CHKC, which is not a GTDT field");
        assertThatIllegalArgumentException().isThrownBy(() -> CODEC.encode(MessageMeta.of("AODB", "GATE", "RQST", "1", sentAt()),
                        new ReferenceAnswer("GATE", List.of())))
                .withMessage("a GATE RESP message needs TYPE=GATE STYP=RESP, not TYPE=GATE STYP=RQST");
    }

    @Test
    void exceptionValuesThatAreNotCleanPairsAreWrittenAsText() {
        var meta = MessageMeta.of("AODB", "FLOP", "FLAB", "1", sentAt());
        for (String value : List.of("DVAP=CTU;x", "DVAP= CTU", "dvap=CTU", "=", "a;b", "DVRM=A;B")) {
            var operation = new FlightOperation(FlopSubtype.FLAB, "7", FlightPatch.empty().with(FlightField.FLAB, new FieldChange.SetTo(value)));
            String xml = CODEC.encode(meta, operation);
            assertThat(xml).contains("<FLAB>" + value + "</FLAB>");
            assertThat(decoded(xml).flightMessage()).contains(operation);
        }
    }
}
