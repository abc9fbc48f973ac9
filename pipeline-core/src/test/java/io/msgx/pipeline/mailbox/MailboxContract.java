package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.port.Mailbox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The behaviour every {@link Mailbox} must show (sis-format §1), run against the in-memory fake and against the real
 * MySQL / MariaDB adapter. A subclass supplies a fresh empty mailbox and the test-only hooks that play the AODB side
 * (write, delete inbound rows) and inspect what the port cannot show (the mark, the outbound rows).
 *
 * <p>The contract does not assume IDs start at 1: it uses the IDs the hooks return.
 */
public abstract class MailboxContract {

    /** One row of {@code COUTMSGS} as stored. */
    public record OutboundRow(long id, String xml, String routingId, Instant insertedAt, Instant sentAt) {
    }

    /** Chinese text, a supplementary-plane character (4 bytes in UTF-8) and XML entities. */
    protected static final String MULTI_BYTE_XML = "<MSG><META><SNDR>AODB</SNDR><TYPE>SCHD</TYPE></META>"
            + "<SCHD><REMC>北京首都国际机场 航班延误 𠮷野家 &amp; é ß ✈</REMC></SCHD></MSG>";

    private static final Instant T1 = Instant.parse("2024-03-11T00:35:12.345Z");
    private static final Instant T2 = Instant.parse("2024-03-11T02:00:00.001Z");

    protected Mailbox mailbox;

    /** A mailbox over empty inbound and outbound tables; called before each test. */
    protected abstract Mailbox freshMailbox();

    /** Insert an inbound row as the AODB side does (next auto-increment ID); returns its ID. */
    protected abstract long insertInbound(String xml, Instant receivedAtOrNull);

    /** Insert an inbound row under an explicit ID (holes, late commits); the received time is NULL. */
    protected abstract void insertInboundWithId(long id, String xml);

    /** Delete an inbound row. */
    protected abstract void deleteInbound(long id);

    /** Set the mailbox status of an inbound row as the AODB side would ({@code null} for {@code NULL}). */
    protected abstract void setStatus(long id, String status);

    /** The stored processing mark of an existing row; empty when it is NULL. */
    protected abstract Optional<Instant> processedMarkOf(long id);

    /** Every outbound row, by ascending ID. */
    protected abstract List<OutboundRow> outboundRows();

    @BeforeEach
    void freshMailboxForEachTest() {
        mailbox = freshMailbox();
    }

    private static List<Long> ids(List<MailboxRow> rows) {
        return rows.stream().map(MailboxRow::id).toList();
    }

    protected static String xml(int n) {
        return "<MSG><META><SEQN>" + n + "</SEQN></META></MSG>";
    }

    // ---------------------------------------------------------------- readAfter

    @Test
    void readAfterOnAnEmptyMailboxIsEmpty() {
        assertThat(mailbox.readAfter(0, 10)).isEmpty();
    }

    @Test
    void readAfterReturnsAscendingIdsUpToTheLimit() {
        long[] id = new long[5];
        for (int i = 0; i < 5; i++) {
            id[i] = insertInbound(xml(i), T1);
        }

        assertThat(ids(mailbox.readAfter(0, 3))).containsExactly(id[0], id[1], id[2]);
        assertThat(ids(mailbox.readAfter(id[2], 3))).containsExactly(id[3], id[4]);
        assertThat(ids(mailbox.readAfter(0, 100))).containsExactly(id[0], id[1], id[2], id[3], id[4]);
    }

    @Test
    void readAfterReturnsOnlyRowsAboveTheWatermark() {
        long a = insertInbound(xml(1), null);
        long b = insertInbound(xml(2), null);
        long c = insertInbound(xml(3), null);

        assertThat(ids(mailbox.readAfter(a, 10))).containsExactly(b, c);
        assertThat(ids(mailbox.readAfter(b, 10))).containsExactly(c);
        assertThat(mailbox.readAfter(c, 10)).isEmpty();
        assertThat(mailbox.readAfter(c + 1000, 10)).isEmpty();
    }

    @Test
    void markedRowsAreStillReturnedByReadAfter() {
        long a = insertInbound(xml(1), null);
        long b = insertInbound(xml(2), null);
        assertThat(mailbox.markProcessed(a, T1)).isEqualTo(MarkOutcome.WRITTEN);

        assertThat(ids(mailbox.readAfter(0, 10))).containsExactly(a, b);
    }

    @Test
    void holesInIdsAreVisibleAsGaps() {
        long a = insertInbound(xml(1), null);
        long b = insertInbound(xml(2), null);
        insertInboundWithId(b + 3, xml(5));

        assertThat(ids(mailbox.readAfter(0, 10))).containsExactly(a, b, b + 3);
        assertThat(ids(mailbox.readAfter(b, 1))).containsExactly(b + 3);
    }

    @Test
    void aLateCommitBelowALargerIdIsReturnedInIdOrder() {
        long a = insertInbound(xml(1), null);
        insertInboundWithId(a + 3, xml(4));
        insertInboundWithId(a + 1, xml(2));

        assertThat(ids(mailbox.readAfter(0, 10))).containsExactly(a, a + 1, a + 3);
        assertThat(ids(mailbox.readAfter(a, 10))).containsExactly(a + 1, a + 3);
    }

    @Test
    void readAfterRefusesALimitBelowOneAndANegativeWatermark() {
        assertThatThrownBy(() -> mailbox.readAfter(0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> mailbox.readAfter(-1, 10)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---------------------------------------------------------------- received time

    @Test
    void aNullReceivedTimeComesBackNull() {
        long id = insertInbound(xml(1), null);

        assertThat(mailbox.readAfter(0, 10)).containsExactly(new MailboxRow(id, null));
    }

    @Test
    void theReceivedTimeRoundTripsToTheMillisecond() {
        long id = insertInbound(xml(1), T1);
        long other = insertInbound(xml(2), T2);

        assertThat(mailbox.readAfter(0, 10)).containsExactly(new MailboxRow(id, T1), new MailboxRow(other, T2));
    }

    // ---------------------------------------------------------------- readText

    @Test
    void readTextReturnsTheStoredXml() {
        long id = insertInbound(xml(42), T1);

        assertThat(mailbox.readText(id)).contains(xml(42));
    }

    @Test
    void readTextsReturnsTheTextsOfTheRowsThatExist() {
        long a = insertInbound(xml(1), T1);
        long b = insertInbound(xml(2), T1);
        long c = insertInbound(xml(3), T1);
        deleteInbound(b);

        var texts = mailbox.readTexts(java.util.List.of(a, b, c, c + 1000));

        assertThat(texts).containsOnlyKeys(a, c);
        assertThat(texts.get(a)).isEqualTo(xml(1));
        assertThat(texts.get(c)).isEqualTo(xml(3));
        assertThat(mailbox.readTexts(java.util.List.of())).isEmpty();
    }

    // ---------------------------------------------------------------- the mailbox status (sis-format §10)

    @Test
    void aRowIsReadWithItsStatusValidByDefault() {
        long id = insertInbound(xml(1), T1);

        assertThat(mailbox.readContent(id)).contains(new MailboxContent(xml(1), "VALID"));
    }

    @Test
    void theStatusIsReadAsWrittenNullIncluded() {
        long valid = insertInbound(xml(1), T1);
        long invalid = insertInbound("not even XML <", T1);
        long none = insertInbound(xml(3), T1);
        long padded = insertInbound(xml(4), T1);
        setStatus(invalid, "INVALID");
        setStatus(none, null);
        setStatus(padded, " valid ");

        var contents = mailbox.readContents(List.of(valid, invalid, none, padded, padded + 1000));

        assertThat(contents).containsOnlyKeys(valid, invalid, none, padded);
        assertThat(contents.get(valid)).isEqualTo(new MailboxContent(xml(1), "VALID"));
        assertThat(contents.get(invalid)).isEqualTo(new MailboxContent("not even XML <", "INVALID"));
        assertThat(contents.get(none)).isEqualTo(new MailboxContent(xml(3), null));
        assertThat(contents.get(padded)).isEqualTo(new MailboxContent(xml(4), " valid "));
        assertThat(mailbox.readContent(invalid)).contains(contents.get(invalid));
        assertThat(mailbox.readContent(padded + 1000)).isEmpty();
        assertThat(mailbox.readText(invalid)).as("the text alone, whatever the status").contains("not even XML <");
    }

    @Test
    void readTextOfAMissingRowIsEmpty() {
        long id = insertInbound(xml(1), null);

        assertThat(mailbox.readText(id + 1000)).isEmpty();
        deleteInbound(id);
        assertThat(mailbox.readText(id)).isEmpty();
    }

    @Test
    void multiByteUtf8TextSurvivesInboundAndOutbound() {
        long id = insertInbound(MULTI_BYTE_XML, T1);
        mailbox.appendOutbound(new OutboundMessage(MULTI_BYTE_XML, "RMS-中文", T1));

        assertThat(mailbox.readText(id)).contains(MULTI_BYTE_XML);
        assertThat(outboundRows()).singleElement().satisfies(row -> {
            assertThat(row.xml()).isEqualTo(MULTI_BYTE_XML);
            assertThat(row.routingId()).isEqualTo("RMS-中文");
        });
    }

    @Test
    void aLargeMessageSurvives() {
        String body = "<REMC>" + "航班".repeat(60_000) + "</REMC>"; // ~360 KB of UTF-8
        long id = insertInbound(body, null);

        assertThat(mailbox.readText(id)).contains(body);
    }

    // ---------------------------------------------------------------- the processing mark

    @Test
    void theMarkIsWrittenOnceAndTheFirstValueIsKept() {
        long id = insertInbound(xml(1), null);
        assertThat(processedMarkOf(id)).isEmpty();

        assertThat(mailbox.markProcessed(id, T1)).isEqualTo(MarkOutcome.WRITTEN);
        assertThat(processedMarkOf(id)).contains(T1);

        assertThat(mailbox.markProcessed(id, T2)).isEqualTo(MarkOutcome.ALREADY_MARKED);
        assertThat(processedMarkOf(id)).contains(T1);
    }

    @Test
    void rowsMarkedTogetherGetTheOutcomeEachWouldGetAlone() {
        long fresh = insertInbound(xml(1), null);
        long marked = insertInbound(xml(2), null);
        long gone = insertInbound(xml(3), null);
        mailbox.markProcessed(marked, T1);
        deleteInbound(gone);

        var outcomes = mailbox.markAllProcessed(java.util.List.of(fresh, marked, gone), T2);

        assertThat(outcomes).containsEntry(fresh, MarkOutcome.WRITTEN)
                .containsEntry(marked, MarkOutcome.ALREADY_MARKED)
                .containsEntry(gone, MarkOutcome.MISSING_ROW);
        assertThat(processedMarkOf(fresh)).contains(T2);
        assertThat(processedMarkOf(marked)).as("the first mark is kept").contains(T1);
    }

    @Test
    void theMarkIsStoredToTheMillisecond() {
        long id = insertInbound(xml(1), null);

        mailbox.markProcessed(id, Instant.parse("2024-03-11T00:35:12.345678901Z"));

        assertThat(processedMarkOf(id)).contains(Instant.parse("2024-03-11T00:35:12.345Z"));
    }

    @Test
    void markingOneRowLeavesTheOthersUnmarked() {
        long a = insertInbound(xml(1), null);
        long b = insertInbound(xml(2), null);

        mailbox.markProcessed(a, T1);

        assertThat(processedMarkOf(b)).isEmpty();
        assertThat(mailbox.markProcessed(b, T2)).isEqualTo(MarkOutcome.WRITTEN);
    }

    @Test
    void markingADeletedOrUnknownRowIsMissingRow() {
        long id = insertInbound(xml(1), null);
        deleteInbound(id);

        assertThat(mailbox.markProcessed(id, T1)).isEqualTo(MarkOutcome.MISSING_ROW);
        assertThat(mailbox.markProcessed(id + 1000, T1)).isEqualTo(MarkOutcome.MISSING_ROW);
    }

    // ---------------------------------------------------------------- outbound

    @Test
    void appendOutboundReturnsIncreasingIdsAndStoresTextRoutingAndInsertedTime() {
        long first = mailbox.appendOutbound(new OutboundMessage("<MSG>1</MSG>", "RQFD", T1));
        long second = mailbox.appendOutbound(
                new OutboundMessage("<MSG>2</MSG>", "RMS", Instant.parse("2024-03-11T02:00:00.001999Z")));

        assertThat(second).isGreaterThan(first);
        assertThat(outboundRows()).containsExactly(
                new OutboundRow(first, "<MSG>1</MSG>", "RQFD", T1, null),
                new OutboundRow(second, "<MSG>2</MSG>", "RMS", T2, null));
    }

    @Test
    void appendOutboundDoesNotTouchTheInbound() {
        mailbox.appendOutbound(new OutboundMessage("<MSG/>", "RMS", T1));

        assertThat(mailbox.readAfter(0, 10)).isEmpty();
        assertThat(mailbox.maxId()).isEmpty();
    }

    // ---------------------------------------------------------------- min / max

    @Test
    void minAndMaxOfAnEmptyMailboxAreEmpty() {
        assertThat(mailbox.minId()).isEmpty();
        assertThat(mailbox.maxId()).isEmpty();
    }

    @Test
    void minAndMaxFollowThePresentRows() {
        long a = insertInbound(xml(1), null);
        long b = insertInbound(xml(2), null);
        insertInboundWithId(b + 5, xml(3));

        assertThat(mailbox.minId()).hasValue(a);
        assertThat(mailbox.maxId()).hasValue(b + 5);

        deleteInbound(a);
        assertThat(mailbox.minId()).hasValue(b);
    }

    @Test
    void an_outbound_row_is_found_again_by_a_marker_in_its_text_among_rows_written_since_a_time() {
        var t0 = Instant.parse("2024-03-11T06:00:00.123Z");
        long first = mailbox.appendOutbound(new OutboundMessage("<MSG><SEQN>111</SEQN></MSG>", "AODB", t0));
        long second = mailbox.appendOutbound(new OutboundMessage("<MSG><SEQN>222</SEQN></MSG>", "AODB", t0.plusSeconds(1)));

        assertThat(mailbox.findOutbound("<SEQN>222</SEQN>", t0)).hasValue(second);
        assertThat(mailbox.findOutbound("<SEQN>111</SEQN>", t0)).hasValue(first);
        assertThat(mailbox.findOutbound("<SEQN>111</SEQN>", t0.plusSeconds(1))).as("written before the time").isEmpty();
        assertThat(mailbox.findOutbound("<SEQN>333</SEQN>", t0)).isEmpty();
    }
}
