package io.msgx.runner;

import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.config.Keys;
import io.msgx.runner.embed.MsgExchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The identity algorithm cannot change in silence (issue 24 point 7, D-86): on a PostgreSQL store whose identities were
 * made without the day boundary, an exchange configured with it refuses to start, naming the setting and the way to
 * mean it; with {@code msgx.identity.accept-algorithm-change=true} it starts.
 */
class IdentityAlgorithmAtStartUpTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void a_store_with_identities_refuses_another_algorithm_unless_the_change_is_accepted() throws Exception {
        var clock = SettableClock.atExampleDay();
        services.deliver(new SisMessages().schedule(fltr("1001", "11MAR240835")));
        new PipelineHarness(services.mailbox(), services.store(clock), clock).runUntilQuiet();

        var keys = services.runnerKeys();
        keys.put(Keys.IDENTITY_WITH_DAY, "true");
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            assertThatThrownBy(exchange::start).hasMessageContaining("Refusing to start")
                    .hasMessageContaining("made without the day boundary")
                    .hasMessageContaining("msgx.identity.accept-algorithm-change=true");
        }

        keys.put(Keys.IDENTITY_ACCEPT_CHANGE, "true");
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.start();
            assertThat(exchange.status()).isNotNull();
        }

        keys.remove(Keys.IDENTITY_ACCEPT_CHANGE);
        keys.remove(Keys.IDENTITY_WITH_DAY);
        try (var exchange = MsgExchange.builder().config(keys).build()) {
            exchange.start(); // the algorithm the store was made with
        }
    }
}
