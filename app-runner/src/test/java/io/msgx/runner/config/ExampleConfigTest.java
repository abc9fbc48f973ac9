package io.msgx.runner.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution's {@code config/msgexchange.properties.example} (D-76) names every key this build reads, each once,
 * commented out with its default: uncommented, it configures exactly what the defaults do.
 */
class ExampleConfigTest {

    static final Path EXAMPLE = Path.of("src/dist/config/msgexchange.properties.example");
    private static final Pattern COMMENTED_KEY = Pattern.compile("^# (msgx\\.[a-z0-9.\\-]+)=(.*)$");

    @Test
    void every_key_is_listed_once_commented_out() throws Exception {
        var listed = Files.readAllLines(EXAMPLE).stream().map(COMMENTED_KEY::matcher).filter(java.util.regex.Matcher::matches)
                .map(matcher -> matcher.group(1)).toList();

        assertThat(listed).as("each key once").doesNotHaveDuplicates();
        assertThat(listed.stream().filter(key -> !key.startsWith(Keys.KAFKA_PRODUCER_PREFIX)))
                .as("every key of Keys.ALL, and no other").containsExactlyInAnyOrderElementsOf(Keys.ALL);
        assertThat(Files.readAllLines(EXAMPLE)).as("nothing set: the file is an example")
                .noneMatch(line -> line.startsWith("msgx."));
    }

    @Test
    void the_values_shown_are_the_defaults() throws Exception {
        var required = new LinkedHashMap<String, String>();
        required.put(Keys.STORE_URL, "jdbc:postgresql://db:5432/msgx");
        required.put(Keys.MAILBOX_URL, "jdbc:mysql://aodb:3306/sis");
        required.put(Keys.KAFKA_BOOTSTRAP, "kafka:9092");
        var uncommented = new LinkedHashMap<>(required);
        for (var line : Files.readAllLines(EXAMPLE)) {
            var matcher = COMMENTED_KEY.matcher(line);
            if (matcher.matches() && !matcher.group(2).isEmpty()
                    && !matcher.group(1).startsWith(Keys.KAFKA_PRODUCER_PREFIX)) {
                uncommented.put(matcher.group(1), matcher.group(2));
            }
        }

        var example = RunnerConfig.from(ConfigSource.of(uncommented));
        var defaults = RunnerConfig.from(ConfigSource.of(required));
        for (var component : RunnerConfig.class.getRecordComponents()) {
            assertThat(component.getAccessor().invoke(example)).as(component.getName())
                    .usingRecursiveComparison().isEqualTo(component.getAccessor().invoke(defaults));
        }
    }
}
