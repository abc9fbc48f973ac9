package io.msgx.runner.http;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WatermarkCheckTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final H2TestStore store = H2TestStore.fresh();
    private final WatermarkCheck check = WatermarkCheck.forMaxCommitDelay(store, clock, Duration.ofSeconds(30),
            Duration.ofSeconds(30));

    @Test
    void no_hole_is_up() {
        assertThat(check.budget()).isEqualTo(Duration.ofMinutes(1));
        assertThat(check.check().isUp()).isTrue();
    }

    @Test
    void a_hole_within_the_budget_is_up() {
        store.inboxCursor().save(7, clock.instant());
        clock.tick(Duration.ofSeconds(60));

        assertThat(check.check().isUp()).isTrue();
    }

    @Test
    void a_hole_older_than_the_budget_is_down_naming_the_missing_id_and_what_to_check() {
        store.inboxCursor().save(7, clock.instant());
        clock.tick(Duration.ofSeconds(61));

        var result = check.check();

        assertThat(result).isInstanceOf(ReadinessCheck.Result.Down.class);
        assertThat(((ReadinessCheck.Result.Down) result).reason())
                .contains("mailbox ID 8").contains("61 s").contains("budget 60 s").contains("poller");
    }

    @Test
    void the_budget_must_be_positive() {
        assertThatThrownBy(() -> new WatermarkCheck(store, clock, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }

    @Test
    void an_unreadable_store_makes_the_store_check_down() {
        var down = (PipelineStore) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{PipelineStore.class}, (proxy, method, args) -> {
                    throw new StoreUnavailableException("connection refused", null);
                });

        var result = ReadCheck.store(down).check();

        assertThat(result).isInstanceOf(ReadinessCheck.Result.Down.class);
        assertThat(((ReadinessCheck.Result.Down) result).reason()).contains("connection refused")
                .contains("INBOX_CURSOR");
    }
}
