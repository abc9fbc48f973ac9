package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.port.Mailbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The in-memory fake against the shared {@link MailboxContract}, plus its "unavailable" switch. */
class InMemoryMailboxTest extends MailboxContract {

    private InMemoryMailbox fake;

    @Override
    protected Mailbox freshMailbox() {
        fake = new InMemoryMailbox();
        return fake;
    }

    @Override
    protected long insertInbound(String xml, Instant receivedAtOrNull) {
        return fake.appendInbound(xml, receivedAtOrNull);
    }

    @Override
    protected void insertInboundWithId(long id, String xml) {
        fake.putInbound(id, xml, null);
    }

    @Override
    protected void deleteInbound(long id) {
        fake.deleteInbound(id);
    }

    @Override
    protected void setStatus(long id, String status) {
        fake.setStatus(id, status);
    }

    @Override
    protected Optional<Instant> processedMarkOf(long id) {
        return fake.processedMarkOf(id);
    }

    @Override
    protected List<OutboundRow> outboundRows() {
        return fake.outbound().stream()
                .map(o -> new OutboundRow(o.id(), o.message().xml(), o.message().routingId(),
                        o.message().insertedAt(), o.sentAt()))
                .toList();
    }

    @Test
    void whenUnavailableEveryPortCallThrowsAndNothingChanges() {
        long id = fake.appendInbound("<MSG/>", null);
        fake.setUnavailable(true);

        List<Executable> calls = List.of(
                () -> fake.readAfter(0, 10),
                () -> fake.readText(id),
                () -> fake.markProcessed(id, Instant.EPOCH),
                () -> fake.appendOutbound(new OutboundMessage("<MSG/>", "RMS", Instant.EPOCH)),
                () -> fake.minId(),
                () -> fake.maxId());
        for (Executable call : calls) {
            assertThatThrownBy(call::execute)
                    .isInstanceOf(MailboxUnavailableException.class)
                    .hasMessageContaining("unavailable");
        }
        assertThat(fake.processedMarkOf(id)).isEmpty();
        assertThat(fake.outbound()).isEmpty();
    }

    @Test
    void theUnavailableMessageNamesTheOperationAndTheId() {
        fake.setUnavailable(true);

        assertThatThrownBy(() -> fake.markProcessed(17, Instant.EPOCH)).hasMessageContaining("markProcessed(id=17)");
    }

    @Test
    void hooksKeepWorkingWhileUnavailableAndThePortRecovers() {
        fake.setUnavailable(true);
        long id = fake.appendInbound("<MSG/>", null);

        fake.setUnavailable(false);

        assertThat(fake.readAfter(0, 10)).extracting(MailboxRow::id).containsExactly(id);
    }

    @Test
    void anExplicitIdMovesTheNextAutoIdAboveIt() {
        fake.putInbound(10, "<MSG/>", null);

        assertThat(fake.appendInbound("<MSG/>", null)).isEqualTo(11);
        assertThatThrownBy(() -> fake.putInbound(10, "<MSG/>", null)).isInstanceOf(IllegalArgumentException.class);
    }
}
