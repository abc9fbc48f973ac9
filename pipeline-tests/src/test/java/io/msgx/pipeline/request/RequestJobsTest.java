package io.msgx.pipeline.request;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;

import static org.assertj.core.api.Assertions.assertThat;

class RequestJobsTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = new SettableClock(Instant.parse("2024-03-11T09:30:00Z")); // 17:30 Shanghai
    private final RequestSender sender = new RequestSender(mailbox, store, RequestSettings.defaults(),
            OperationDayRule.defaults(), clock);

    @Test
    void an_unanswered_request_expires_after_the_timeout_and_not_before() {
        var request = sender.requestReference("GATE");
        var expiry = new RequestExpiry(store, Duration.ofMinutes(30), clock);
        clock.tick(Duration.ofMinutes(29));
        assertThat(expiry.runOnce()).isZero();
        clock.tick(Duration.ofMinutes(2));
        assertThat(expiry.runOnce()).isEqualTo(1);
        assertThat(store.requests().find(request.id()).orElseThrow().status()).isEqualTo(RequestStatus.EXPIRED);
    }

    @Test
    void tomorrows_schedule_is_asked_for_once_a_day_at_the_set_local_time() {
        var daily = new DailyScheduleRequest(sender, LocalTime.of(18, 0), OperationDayRule.defaults(), clock);
        assertThat(daily.runOnce()).as("17:30: not yet").isEmpty();
        clock.tick(Duration.ofMinutes(30));
        assertThat(daily.runOnce()).contains(LocalDate.of(2024, 3, 12));
        clock.tick(Duration.ofHours(1));
        assertThat(daily.runOnce()).as("once a day").isEmpty();
        assertThat(mailbox.outbound()).hasSize(1);
        clock.tick(Duration.ofHours(23));
        assertThat(daily.runOnce()).contains(LocalDate.of(2024, 3, 13));
    }
}
