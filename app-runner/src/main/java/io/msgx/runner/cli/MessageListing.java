package io.msgx.runner.cli;

import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.runner.embed.MsgExchange;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The messages in one state, oldest mailbox ID first, as {@code dead list} and {@code failed list} print them: ID,
 * error class, attempts, when the next attempt is due (a {@code FAILED} message), when it last changed, its error.
 */
abstract class MessageListing implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Option(names = "--limit", defaultValue = "100", description = "At most this many (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    private final ProcStatus status;
    private final String jsonKey;

    MessageListing(ProcStatus status, String jsonKey) {
        this.status = status;
        this.jsonKey = jsonKey;
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        try (MsgExchange exchange = config.open()) {
            List<ProcRecord> records = exchange.store().messageQueries().withStatus(status, limit);
            if (json) {
                var rows = new ArrayList<Map<String, Object>>();
                for (var r : records) {
                    var row = new LinkedHashMap<String, Object>();
                    row.put("msgId", r.msgId());
                    row.put("errorClass", r.errorClass());
                    row.put("attempts", r.attempts());
                    row.put("nextAttemptAt", r.nextAttemptAt());
                    row.put("reason", r.lastError());
                    row.put("updatedAt", r.updatedAt());
                    rows.add(row);
                }
                JsonOutput.print(out, Map.of(jsonKey, rows));
            } else {
                records.forEach(r -> out.printf("%d  %-11s  %d attempt(s)  %s  %s  %s%n", r.msgId(), r.errorClass(),
                        r.attempts(), r.nextAttemptAt() == null ? "-" : "next " + r.nextAttemptAt(), r.updatedAt(),
                        r.lastError()));
                out.flush();
            }
            return 0;
        }
    }
}
