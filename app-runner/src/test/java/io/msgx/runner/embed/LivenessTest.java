package io.msgx.runner.embed;

import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.standby.LeaderLease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D-70 and D-74 on a real store: an active instance and a hot standby are both live (the standby's lease watcher beats for it);
 * a loop that meets a JVM Error goes to the fatal-error handler — by default the exchange closes itself, releasing the
 * lease so the standby takes over, and reports the error; it does not end the embedder's process.
 */
class LivenessTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void the_active_instance_and_the_standby_are_both_live() throws Exception {
        var keys = services.runnerKeys();
        keys.put("msgx.jobs.standby-poll", "200ms");
        try (var active = MsgExchange.builder().config(keys).build();
             var standby = MsgExchange.builder().config(keys).build()) {
            assertThat(active.liveness().live()).as("before start nothing is expected to beat").isTrue();
            active.migrate();
            active.start();
            BuiltRunner.await("active", active::isActive);
            standby.start();
            Thread.sleep(1000);

            assertThat(standby.isActive()).isFalse();
            assertThat(standby.liveness().live()).as("a standby runs no jobs and is live").isTrue();
            assertThat(active.liveness().live()).isTrue();
            assertThat(active.fatalError()).isEmpty();
        }
    }

    @Test
    void an_error_in_a_loop_closes_the_exchange_by_default_reports_it_and_the_standby_takes_over() throws Exception {
        var keys = services.runnerKeys();
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "200ms");
        try (var failing = MsgExchange.builder().config(keys)
                .leaseAs(real -> LeaderLease.of(real::tryAcquire, () -> {
                    throw new StackOverflowError("injected into the lease check");
                }, real::close)).build();
             var standby = MsgExchange.builder().config(keys).build()) {
            failing.migrate();
            failing.start();
            BuiltRunner.await("active", failing::isActive);
            standby.start();

            BuiltRunner.await("the error reported", () -> failing.fatalError().isPresent());
            assertThat(failing.fatalError().orElseThrow()).isEqualTo(
                    "lease-watcher: java.lang.StackOverflowError: injected into the lease check");
            assertThat(failing.liveness().live()).isFalse();
            BuiltRunner.await("the failing exchange closed itself and released the lease: the standby is active",
                    standby::isActive);
            assertThat(failing.isActive()).isFalse();
        }
    }

    @Test
    void an_embedder_may_install_its_own_handler() throws Exception {
        var keys = services.runnerKeys();
        keys.put("msgx.jobs.standby-poll", "200ms");
        List<String> seen = new CopyOnWriteArrayList<>();
        try (var exchange = MsgExchange.builder().config(keys)
                .onFatalError((loop, error) -> seen.add(loop + " " + error.getClass().getSimpleName()))
                .leaseAs(real -> LeaderLease.of(() -> {
                    throw new NoClassDefFoundError("injected");
                }, real::isHeld, real::close)).build()) {
            exchange.migrate();
            exchange.start();
            BuiltRunner.await("the handler called", () -> !seen.isEmpty());
            assertThat(seen).containsExactly("lease-watcher NoClassDefFoundError");
            assertThat(exchange.liveness().live()).isFalse();
        }
    }
}
