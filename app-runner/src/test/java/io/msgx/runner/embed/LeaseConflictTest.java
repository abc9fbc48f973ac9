package io.msgx.runner.embed;

import ch.qos.logback.classic.Level;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.runner.BuiltRunner;
import io.msgx.runner.RealServices;
import io.msgx.runner.security.LogCapture;
import io.msgx.runner.standby.LeaderLease;
import io.msgx.runner.standby.LeaseWatcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D-45: a lease request the store rolls back to break a conflict (a deadlock's victim) is not an outage. The exchange
 * says "conflict", reports no store outage, and asks again after the pump's period, so it is active soon after. The
 * PostgreSQL lease is an advisory lock, which never deadlocks; the lease here is the real one, made to lose its
 * first two requests as a store's row lock can.
 */
class LeaseConflictTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void a_lease_request_lost_to_a_conflict_is_asked_again_soon_and_reported_as_a_conflict() throws Exception {
        var keys = services.runnerKeys();
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "1h"); // an answer "held by another instance" would wait that long
        var conflicts = new AtomicInteger(2);
        List<String> lines;
        try (var log = LogCapture.start(Level.INFO);
             var exchange = MsgExchange.builder().config(keys)
                     .leaseAs(real -> LeaderLease.of(() -> {
                         if (conflicts.getAndDecrement() > 0) {
                             throw new StoreConflictException("deadlock detected (injected)", null);
                         }
                         return real.tryAcquire();
                     }, real::isHeld, real::close))
                     .build()) {
            exchange.migrate();
            var started = Instant.now();
            exchange.start();
            BuiltRunner.await("active after the conflicts", exchange::isActive);

            assertThat(Duration.between(started, Instant.now())).as("active within a few pump periods")
                    .isLessThan(Duration.ofSeconds(5));
            lines = log.lines().stream().filter(line -> line.contains(LeaseWatcher.class.getName())).toList();
        }
        assertThat(lines).filteredOn(line -> line.contains("rolled the request back to break a conflict"))
                .hasSize(2).allSatisfy(line -> assertThat(line).startsWith("WARN").contains("deadlock detected"));
        assertThat(lines).as("no store outage reported").noneSatisfy(line -> assertThat(line).contains("unavailable"));
    }
}
