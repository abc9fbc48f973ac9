package io.msgx.tools.simulator;

import io.msgx.pipeline.mailbox.InMemoryMailbox;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

class MailboxFeederTest {

    private static final ZoneId SHANGHAI = ZoneId.of("Asia/Shanghai");

    private final AirportDay day = new AirportDaySimulator().generate(SimulationSettings.of(5, 60, LocalDate.of(2024, 3, 11)));

    @Test
    void writes_the_day_in_order_with_the_timeline_as_receive_time_and_some_nulls() {
        var mailbox = new InMemoryMailbox();

        var fed = new MailboxFeeder(mailbox, SHANGHAI).feedAll(day);

        assertThat(fed).extracting(MailboxFeeder.FedMessage::message).isEqualTo(day.messages());
        for (var message : fed) {
            assertThat(mailbox.readText(message.mailboxId())).contains(message.message().xml());
            if (message.receivedAt() != null) {
                var timeline = message.message().writtenAt().atZone(SHANGHAI).toInstant();
                assertThat(Duration.between(timeline, message.receivedAt())).isBetween(Duration.ZERO, Duration.ofSeconds(3));
            }
        }
        var nulls = fed.stream().filter(m -> m.receivedAt() == null).count();
        assertThat(nulls).as("about 2 %% of %d", fed.size()).isBetween(1L, fed.size() / 20L);
    }

    @Test
    void chunks_write_the_same_as_all_at_once() {
        var whole = new MailboxFeeder(new InMemoryMailbox(), SHANGHAI).feedAll(day);
        var feed = new MailboxFeeder(new InMemoryMailbox(), SHANGHAI).open(day);
        var chunks = new ArrayList<MailboxFeeder.FedMessage>();
        while (feed.remaining() > 0) {
            var chunk = feed.feedNext(97);
            assertThat(chunk.size()).isBetween(1, 97);
            chunks.addAll(chunk);
        }

        assertThat(chunks).isEqualTo(whole).isEqualTo(feed.fed());
        assertThat(feed.feedRest()).isEmpty();
    }

    @Test
    void no_receive_time_at_all_or_always_one() {
        var none = new MailboxFeeder(new InMemoryMailbox(), SHANGHAI, 1.0).feedAll(day);
        var all = new MailboxFeeder(new InMemoryMailbox(), SHANGHAI, 0.0).feedAll(day);

        assertThat(none).allMatch(m -> m.receivedAt() == null);
        assertThat(all).allMatch(m -> Objects.nonNull(m.receivedAt()));
    }
}
