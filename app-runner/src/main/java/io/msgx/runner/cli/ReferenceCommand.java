package io.msgx.runner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.msgx.pipeline.record.ReferenceEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * Reference data as stored in {@code REF_MASTER} (sis-format §6): the types with their counts, the records of a type,
 * one record's whole document (D-58). Type and key are case-sensitive, as stored.
 */
@Command(name = "reference", description = "Inspect reference data (REF_MASTER).",
        subcommands = {ReferenceCommand.Types.class, ReferenceCommand.List.class, ReferenceCommand.Show.class})
final class ReferenceCommand {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code {"type","key","record":<document>,"msgId","updatedAt"}}, the record as on the reference topic. */
    static ObjectNode json(ReferenceEntry entry) {
        var node = JSON.createObjectNode();
        node.put("type", entry.type());
        node.put("key", entry.key());
        node.set("record", entry.document().node());
        node.put("msgId", entry.msgId());
        node.put("updatedAt", entry.updatedAt().toString());
        return node;
    }

    private static void print(CommandSpec spec, Object value) {
        try {
            spec.commandLine().getOut().println(JSON.writeValueAsString(value));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not print reference data as JSON", e);
        }
    }

    @Command(name = "types", description = "Each reference type held, with its number of records.")
    static final class Types implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                print(spec, exchange.store().referenceData().countsByType());
                return 0;
            }
        }
    }

    @Command(name = "list", description = "The records of one type, ordered by key.")
    static final class List implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(paramLabel = "TYPE")
        String type;

        @Option(names = "--limit", description = "At most this many records (default 100).", defaultValue = "100")
        int limit;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                var entries = exchange.store().referenceData().all(type, Math.max(1, limit));
                if (entries.isEmpty()) {
                    spec.commandLine().getErr().println("No " + type + " reference records (the type is case-sensitive).");
                    return Main.NOT_FOUND;
                }
                var array = JSON.createArrayNode();
                entries.forEach(entry -> array.add(json(entry)));
                print(spec, array);
                return 0;
            }
        }
    }

    @Command(name = "show", description = "One record: its whole document, the message that wrote it, when.")
    static final class Show implements Callable<Integer> {
        @Mixin
        ConfigOption config;

        @Parameters(index = "0", paramLabel = "TYPE")
        String type;

        @Parameters(index = "1", paramLabel = "KEY")
        String key;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            try (var exchange = config.open()) {
                var entry = exchange.store().referenceData().find(type, key);
                if (entry.isEmpty()) {
                    spec.commandLine().getErr().println("No " + type + " reference record with key " + key
                            + " (type and key are case-sensitive).");
                    return Main.NOT_FOUND;
                }
                print(spec, json(entry.get()));
                return 0;
            }
        }
    }
}
