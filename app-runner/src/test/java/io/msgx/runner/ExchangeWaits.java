package io.msgx.runner;

import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;

import java.time.Duration;
import java.time.Instant;

/** Bounded waits on an embedded exchange, for the tests that run one in this JVM. */
final class ExchangeWaits {

    private ExchangeWaits() {
    }

    /** The exchange's status once it has processed something and has no backlog; fails after 30 s. */
    static PipelineStatus waitUntilDrained(MsgExchange exchange) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            var status = exchange.status();
            if (status.watermark() > 0 && status.backlog() == 0) {
                return status;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the pipeline did not drain within 30 s: " + exchange.status());
    }
}
