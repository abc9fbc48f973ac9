package io.msgx.runner.store;

import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.runner.RealServices;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * D-73 on a real PostgreSQL: a store session blocked by a lock another session holds fails within the statement
 * timeout as an outage ({@link StoreUnavailableException}, which every job retries and OutageLog reports), and without a
 * statement timeout within the socket timeout; it does not hang.
 */
class StoreTimeoutTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void a_statement_blocked_by_a_lock_is_cancelled_by_the_statement_timeout_as_an_outage() throws Exception {
        assertBlockedCallFailsAsOutageWithin(timeouts("1s", "30s"), Duration.ofSeconds(1), Duration.ofSeconds(8),
                "statement timeout");
    }

    @Test
    void without_a_statement_timeout_the_socket_timeout_ends_the_wait_as_an_outage() throws Exception {
        assertBlockedCallFailsAsOutageWithin(timeouts("0s", "2s"), Duration.ofSeconds(2), Duration.ofSeconds(10), "");
    }

    @Test
    void the_default_bounds_every_pooled_session_and_a_call_that_is_not_blocked_just_works() throws Exception {
        try (var exchange = MsgExchange.builder().config(services.runnerKeys()).build()) {
            assertThat(exchange.status().watermark()).isZero();
        }
    }

    /** The runner's keys with the store's statement and socket timeouts. */
    private java.util.Map<String, String> timeouts(String statementTimeout, String socketTimeout) {
        var keys = services.runnerKeys();
        keys.put(Keys.STORE_STATEMENT_TIMEOUT, statementTimeout);
        keys.put(Keys.STORE_SOCKET_TIMEOUT, socketTimeout);
        return keys;
    }

    private void assertBlockedCallFailsAsOutageWithin(java.util.Map<String, String> keys, Duration atLeast,
                                                      Duration atMost, String reason) throws Exception {
        var schema = keys.get(Keys.STORE_SCHEMA);
        try (var exchange = MsgExchange.builder().config(keys).build();
             Connection locker = DriverManager.getConnection(PgTestDatabase.URL, PgTestDatabase.USER,
                     PgTestDatabase.PASSWORD)) {
            assertThat(exchange.store().inboxCursor().load().watermark()).as("unblocked, it answers").isZero();
            locker.setAutoCommit(false);
            try (var statement = locker.createStatement()) {
                statement.execute("LOCK TABLE " + schema + ".inbox_cursor IN ACCESS EXCLUSIVE MODE");
            }
            var started = Instant.now();
            assertThatThrownBy(() -> exchange.store().inboxCursor().load())
                    .isInstanceOf(StoreUnavailableException.class).hasMessageContaining(reason);
            var waited = Duration.between(started, Instant.now());
            assertThat(waited).isGreaterThanOrEqualTo(atLeast.minusMillis(100)).isLessThan(atMost);
            locker.rollback();
            assertThat(exchange.store().inboxCursor().load().watermark()).as("the lock gone, the store answers again")
                    .isZero();
        }
    }
}
