package io.msgx.runner.cli;

import io.msgx.pipeline.inbox.CutoverSeeding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "seed", description = "Cut-over: set where a brand-new instance starts reading (min, zero, max or an ID).")
final class SeedCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Parameters(paramLabel = "WHERE", description = "min | zero | max | <mailbox ID>")
    String where;

    @Mixin
    CommandAnswer answer;

    @Override
    public Integer call() {
        try (var exchange = config.open()) {
            try {
                var outcome = new CutoverSeeding(exchange.mailbox(), exchange.store().inboxCursor(), exchange.clock())
                        .seed(where);
                boolean seeded = outcome instanceof CutoverSeeding.Outcome.Seeded;
                long watermark = outcome instanceof CutoverSeeding.Outcome.Seeded s ? s.watermark()
                        : ((CutoverSeeding.Outcome.AlreadySeeded) outcome).watermark();
                return answer.print(Map.of("seeded", seeded, "watermark", watermark), outcome.toString());
            } catch (IllegalStateException e) {
                return answer.refuse(Main.REFUSED, e.getMessage());
            }
        }
    }
}
