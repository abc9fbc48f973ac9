package io.msgx.pipeline.inbox;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CutoverSeedingTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final CutoverSeeding seeding = new CutoverSeeding(mailbox, store.inboxCursor(), clock);

    @BeforeEach
    void a_mailbox_whose_oldest_rows_were_purged() {
        mailbox.putInbound(500, "<MSG/>", null);
        mailbox.putInbound(501, "<MSG/>", null);
        mailbox.putInbound(502, "<MSG/>", null);
    }

    @Test
    void min_reads_everything_present() {
        assertThat(seeding.seed("min")).isEqualTo(new CutoverSeeding.Outcome.Seeded(499));
        var cursor = store.inboxCursor().load();
        assertThat(cursor.watermark()).isEqualTo(499);
        assertThat(cursor.seededAt()).isEqualTo(clock.instant());
    }

    @Test
    void max_skips_everything_visible_and_a_number_is_taken_as_is() {
        assertThat(seeding.seed("MAX")).isEqualTo(new CutoverSeeding.Outcome.Seeded(502));
        var other = H2TestStore.fresh();
        assertThat(new CutoverSeeding(mailbox, other.inboxCursor(), clock).seed("501")).isEqualTo(new CutoverSeeding.Outcome.Seeded(501));
        var third = H2TestStore.fresh();
        assertThat(new CutoverSeeding(mailbox, third.inboxCursor(), clock).seed("zero")).isEqualTo(new CutoverSeeding.Outcome.Seeded(0));
        assertThat(third.inboxCursor().load().seededAt()).isNotNull();
    }

    @Test
    void a_seeded_instance_ignores_the_setting_on_restart() {
        seeding.seed("min");
        assertThat(seeding.seed("max")).isEqualTo(new CutoverSeeding.Outcome.AlreadySeeded(499));
        assertThat(store.inboxCursor().load().watermark()).isEqualTo(499);
    }

    @Test
    void an_instance_that_has_consumed_refuses_to_be_seeded() {
        store.inboxCursor().save(0, null);
        store.queue().insertIfAbsent(1, null, clock.instant());
        assertThatThrownBy(() -> seeding.seed("max"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("msgx.pipeline.cutover-watermark=max refused");
        var moved = H2TestStore.fresh();
        moved.inboxCursor().save(42, null);
        assertThatThrownBy(() -> new CutoverSeeding(mailbox, moved.inboxCursor(), clock).seed("min"))
                .hasMessageContaining("watermark 42");
    }

    @Test
    void a_setting_that_is_not_min_zero_max_or_an_id_is_refused_with_the_key() {
        assertThatThrownBy(() -> seeding.seed("latest"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("msgx.pipeline.cutover-watermark must be min, zero, max or a mailbox ID >= 0, got 'latest'");
        assertThatThrownBy(() -> seeding.seed("-4")).isInstanceOf(IllegalArgumentException.class);
    }
}
