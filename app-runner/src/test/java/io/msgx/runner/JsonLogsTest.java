package io.msgx.runner;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.pump.MessageProcessor;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.config.ConfigSource;
import io.msgx.runner.config.Keys;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.logging.LogFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code msgx.log.format=json} (D-75) on the pump's real path: an exchange on the real services processes a group of
 * messages in one tick, then one message alone, while the runner's logging writes JSON. Every line on stderr is one
 * JSON object; every line about a message carries that message's ID in {@code mdc.msgId} (grouped or alone), and the
 * group's own line its {@code first..last} in {@code mdc.msgGroup}.
 */
class JsonLogsTest {

    private static final Pattern ABOUT_A_MESSAGE = Pattern.compile("^Message (\\d+)\\b");

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    private final ObjectMapper json = new ObjectMapper();
    private final PrintStream stderr = System.err;
    private final LoggerContext logback = (LoggerContext) LoggerFactory.getILoggerFactory();

    @AfterEach
    void restoreLogging() throws Exception {
        System.setErr(stderr);
        logback.reset();
        new ContextInitializer(logback).autoConfig();
    }

    @Test
    void json_lines_carry_the_msg_id_of_each_message_on_the_grouped_and_the_single_path() throws Exception {
        var keys = services.runnerKeys();
        keys.put(Keys.LOG_FORMAT, "json");
        keys.put(Keys.POLL_INTERVAL, "200ms");
        keys.put(Keys.GROUP_SIZE, "10");
        var config = RunnerConfig.from(ConfigSource.of(keys));
        assertThat(config.logFormat()).isEqualTo(LogFormat.JSON);
        var grouped = new ArrayList<Long>();
        for (var flight : new String[] {"1001", "1002", "1003"}) {
            grouped.add(services.deliver(sis.schedule(fltr(flight, "11MAR240835"))));
        }
        grouped.add(services.deliver("<SIS><not closed")); // DEAD (MALFORMED), ended inside the group

        var captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        logback.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(Level.INFO);
        logback.getLogger(MessageProcessor.class).setLevel(Level.DEBUG); // the group's own line
        config.logFormat().apply(); // as the CLI does once it has read the configuration
        long single;
        try (var exchange = MsgExchange.builder().config(config).build()) {
            exchange.migrate();
            exchange.start();
            long last = grouped.get(grouped.size() - 1);
            await("the group processed", () -> processed(exchange, last));
            single = services.deliver(sis.schedule(fltr("1004", "11MAR240900")));
            await("the single message processed", () -> processed(exchange, single));
        }
        System.setErr(stderr);

        var lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).isNotEmpty();
        var events = new ArrayList<JsonNode>();
        for (var line : lines) {
            var event = json.readTree(line); // every line is one JSON object
            assertThat(event.isObject()).as(line).isTrue();
            assertThat(event.path("level").asText()).as(line).isNotEmpty();
            events.add(event);
        }
        for (var event : events) {
            var about = ABOUT_A_MESSAGE.matcher(event.path("formattedMessage").asText());
            if (about.find()) {
                assertThat(event.path("mdc").path("msgId").asText()).as("msgId of " + event).isEqualTo(about.group(1));
            }
        }
        var groupRange = grouped.get(0) + ".." + grouped.get(grouped.size() - 1);
        for (long id : grouped) {
            var ended = ended(events, id);
            assertThat(ended.path("mdc").path("msgGroup").asText()).as("ended inside the group: " + ended)
                    .isEqualTo(groupRange);
        }
        assertThat(ended(events, single).path("mdc").has("msgGroup")).as("processed alone").isFalse();
        assertThat(events).as("the group's own line carries the group, no single message")
                .anySatisfy(event -> {
                    assertThat(event.path("formattedMessage").asText()).startsWith("Group of 4 message(s)");
                    assertThat(event.path("mdc").path("msgGroup").asText()).isEqualTo(groupRange);
                    assertThat(event.path("mdc").has("msgId")).isFalse();
                });
        assertThat(events).as("the start-up line names the build").anySatisfy(event ->
                assertThat(event.path("formattedMessage").asText())
                        .startsWith("msgexchange " + BuildInfo.current().describe() + " on Java "));
    }

    /** The line that says how message {@code id} ended. */
    private static JsonNode ended(List<JsonNode> events, long id) {
        return events.stream().filter(event -> event.path("formattedMessage").asText()
                        .matches("Message " + id + " (SUCCEEDED|SKIPPED|DEAD).*"))
                .findFirst().orElseThrow(() -> new AssertionError("no line ends message " + id + " in " + events));
    }

    private static boolean processed(MsgExchange exchange, long lastId) {
        var status = exchange.status();
        return status.watermark() >= lastId && status.backlog() == 0;
    }
}
