package io.msgx.runner.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code --json} and where a command's answer goes: the same answer as a JSON object for a program, or as text for a
 * person; a refusal goes to standard error with the exit code that says why ({@link Main#REFUSED},
 * {@link Main#NOT_FOUND}, {@link Main#USAGE}). One place, so that every command answers the same way.
 */
final class CommandAnswer {

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The answer, as the JSON object with {@code --json}, else as the text; exit 0, the command did what was asked. */
    int print(Map<String, ?> asJson, String asText) {
        if (json) {
            JsonOutput.print(out(), asJson);
        } else {
            out().println(asText);
            out().flush();
        }
        return 0;
    }

    /** An answer whose text is each field on its own line, name then value ({@code -} for none); exit 0. */
    int printFields(Map<String, ?> fields, int nameWidth) {
        if (json) {
            JsonOutput.print(out(), fields);
        } else {
            fields.forEach((name, value) -> out().printf("%-" + nameWidth + "s %s%n", name, value == null ? "-" : value));
            out().flush();
        }
        return 0;
    }

    /** A list, oldest or first first: under {@code key} as JSON objects, else one text line per item; exit 0. */
    <T> int printList(String key, List<T> items, Function<T, Map<String, ?>> asJson, Function<T, String> asLine) {
        if (json) {
            JsonOutput.print(out(), Map.of(key, items.stream().map(asJson).toList()));
        } else {
            items.forEach(item -> out().println(asLine.apply(item)));
            out().flush();
        }
        return 0;
    }

    /** Why the command did not do what was asked, on standard error; the exit code given. */
    int refuse(int exitCode, String why) {
        command.commandLine().getErr().println(why);
        return exitCode;
    }

    PrintWriter out() {
        return command.commandLine().getOut();
    }
}
