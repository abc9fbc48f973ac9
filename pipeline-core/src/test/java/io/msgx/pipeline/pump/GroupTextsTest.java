package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.mailbox.ForwardingMailbox;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The texts of a group (D-51): a text read ahead is used once and never read again; whatever the read-ahead missed,
 * failed at or has not finished is read when its group comes, so it can only save a query, never lose a message.
 */
class GroupTextsTest {

    private static final Executor AT_ONCE = Runnable::run;

    private final SisMessages sis = new SisMessages();
    private final CountingMailbox mailbox = new CountingMailbox();
    private final JacksonXmlCodec codec = new JacksonXmlCodec();

    @Test
    void without_a_read_ahead_a_group_reads_its_texts_in_one_query_and_a_missing_row_is_absent() {
        long first = append(3);
        var texts = GroupTexts.readingNow(mailbox, codec).read(List.of(first, first + 1, first + 2, 99L));

        assertThat(texts).containsOnlyKeys(first, first + 1, first + 2);
        assertThat(texts.get(first).decoded()).isInstanceOf(DecodeResult.Decoded.class);
        assertThat(mailbox.queries).containsExactly(List.of(first, first + 1, first + 2, 99L));
    }

    @Test
    void texts_read_ahead_are_not_read_again_and_decode_as_they_would_now() {
        long first = append(3);
        mailbox.inbox.appendInbound("<MSG><unclosed>", Instant.EPOCH);
        var texts = GroupTexts.readingAhead(mailbox, codec, AT_ONCE);

        texts.readAhead(first - 1, 4);
        var read = texts.read(List.of(first, first + 1, first + 2, first + 3));

        assertThat(mailbox.queries).as("only the read-ahead's query").hasSize(1);
        assertThat(read).containsOnlyKeys(first, first + 1, first + 2, first + 3);
        assertThat(read.get(first + 1).raw()).isEqualTo(mailbox.inbox.readText(first + 1).orElseThrow());
        assertThat(read.get(first + 3).decoded()).isInstanceOf(DecodeResult.Malformed.class);
    }

    @Test
    void a_row_the_read_ahead_did_not_find_is_read_when_its_group_comes() {
        long first = append(2);
        var texts = GroupTexts.readingAhead(mailbox, codec, AT_ONCE);
        texts.readAhead(first - 1, 3);
        long late = append(1); // committed after the read-ahead looked

        var read = texts.read(List.of(first, first + 1, late));

        assertThat(read).containsOnlyKeys(first, first + 1, late);
        assertThat(mailbox.queries).last().isEqualTo(List.of(late));
    }

    @Test
    void a_read_ahead_is_used_once() {
        long first = append(2);
        var texts = GroupTexts.readingAhead(mailbox, codec, AT_ONCE);
        texts.readAhead(first - 1, 2);
        texts.read(List.of(first, first + 1));

        var again = texts.read(List.of(first, first + 1));

        assertThat(again).containsOnlyKeys(first, first + 1);
        assertThat(mailbox.queries).hasSize(2);
    }

    @Test
    void a_read_ahead_that_met_an_outage_is_forgotten_and_the_group_reads_its_texts_itself() {
        long first = append(2);
        var texts = GroupTexts.readingAhead(mailbox, codec, AT_ONCE);
        mailbox.inbox.setUnavailable(true);
        texts.readAhead(first - 1, 2);
        mailbox.inbox.setUnavailable(false);

        assertThat(texts.read(List.of(first, first + 1))).containsOnlyKeys(first, first + 1);
    }

    @Test
    void when_the_mailbox_is_still_away_the_group_meets_the_outage_itself() {
        long first = append(2);
        var texts = GroupTexts.readingAhead(mailbox, codec, AT_ONCE);
        mailbox.inbox.setUnavailable(true);
        texts.readAhead(first - 1, 2);

        assertThatThrownBy(() -> texts.read(List.of(first, first + 1)))
                .isInstanceOf(MailboxUnavailableException.class);
    }

    @Test
    void a_read_ahead_that_has_not_finished_is_not_waited_for() {
        long first = append(2);
        var queued = new ArrayList<Runnable>();
        var texts = GroupTexts.readingAhead(mailbox, codec, queued::add); // never runs what it is given

        texts.readAhead(first - 1, 2);
        var read = texts.read(List.of(first, first + 1));

        assertThat(queued).hasSize(1);
        assertThat(read).containsOnlyKeys(first, first + 1);
        assertThat(mailbox.queries).containsExactly(List.of(first, first + 1));
    }

    @Test
    void a_read_ahead_the_executor_refuses_is_not_made() {
        long first = append(2);
        Executor stopped = task -> {
            throw new RejectedExecutionException("stopping");
        };
        var texts = GroupTexts.readingAhead(mailbox, codec, stopped);

        texts.readAhead(first - 1, 2);

        assertThat(texts.read(List.of(first, first + 1))).containsOnlyKeys(first, first + 1);
    }

    @Test
    void a_row_whose_status_makes_it_no_message_is_read_with_its_status_and_not_decoded() {
        long first = append(1);
        long invalid = mailbox.inbox.appendInbound("garbage <", Instant.EPOCH);
        mailbox.inbox.setStatus(invalid, "INVALID");
        var texts = GroupTexts.readingAhead(mailbox, codec, io.msgx.pipeline.mailbox.AcceptedStatuses.defaults()::accepts,
                AT_ONCE);
        texts.readAhead(first - 1, 2);

        var read = texts.read(List.of(first, invalid));

        assertThat(read.get(first).status()).isEqualTo("VALID");
        assertThat(read.get(first).decoded()).isInstanceOf(DecodeResult.Decoded.class);
        assertThat(read.get(invalid).status()).isEqualTo("INVALID");
        assertThat(read.get(invalid).raw()).isEqualTo("garbage <");
        assertThat(read.get(invalid).decoded()).as("not decoded").isNull();
    }

    /** Appends {@code count} schedules and returns the first one's ID. */
    private long append(int count) {
        long first = -1;
        for (int i = 0; i < count; i++) {
            long id = mailbox.inbox.appendInbound(sis.schedule(fltr("F" + i, "20260801")), Instant.EPOCH);
            first = first < 0 ? id : first;
        }
        return first;
    }

    /** The in-memory mailbox, recording the IDs of every {@code readContents} query. */
    private static final class CountingMailbox extends ForwardingMailbox {
        final InMemoryMailbox inbox;
        final List<List<Long>> queries = new CopyOnWriteArrayList<>();

        CountingMailbox() {
            this(new InMemoryMailbox());
        }

        private CountingMailbox(InMemoryMailbox inbox) {
            super(inbox);
            this.inbox = inbox;
        }

        @Override
        public Map<Long, MailboxContent> readContents(Collection<Long> ids) {
            queries.add(List.copyOf(ids));
            return super.readContents(ids);
        }
    }
}
