package io.msgx.runner.cli;

import io.msgx.pipeline.inbox.CutoverSeeding;
import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.Map;

@Command(name = "seed", description = "Cut-over: set where a brand-new instance starts reading (min, zero, max or an ID).")
final class SeedCommand extends StoreCommand {

    @Parameters(paramLabel = "WHERE", description = "min | zero | max | <mailbox ID>")
    String where;

    @Override
    int run(MsgExchange exchange) {
        try {
            var outcome = new CutoverSeeding(exchange.mailbox(), exchange.store().inboxCursor(), exchange.clock())
                    .seed(where);
            boolean seeded = outcome instanceof CutoverSeeding.Outcome.Seeded;
            return answer.print(Map.of("seeded", seeded, "watermark", outcome.watermark()), outcome.toString());
        } catch (IllegalStateException e) {
            return answer.refuse(Main.REFUSED, e.getMessage());
        }
    }
}
