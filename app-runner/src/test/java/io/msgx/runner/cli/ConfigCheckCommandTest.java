package io.msgx.runner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** D-72: {@code config check} prints the effective configuration, secrets masked; 0 when valid, 2 when not. */
class ConfigCheckCommandTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    private int check(String... args) {
        var commandLine = new CommandLine(new Main());
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        return commandLine.execute(args);
    }

    @Test
    void a_valid_file_exits_zero_and_every_key_is_shown_with_its_source_secrets_masked() throws Exception {
        var file = dir.resolve("site.properties");
        Files.writeString(file, String.join("\n", "msgx.store.url=jdbc:postgresql://db/msgx",
                "msgx.store.password=StorePass1", "msgx.mailbox.url=jdbc:mysql://msgx:UrlPass2@aodb/sis",
                "msgx.kafka.bootstrap-servers=kafka:9092", "msgx.http.token=Token3"));

        int code = check("config", "check", "-c", file.toString());

        var text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text).isZero();
        assertThat(text).containsPattern("msgx\\.kafka\\.bootstrap-servers +kafka:9092 +\\(site\\.properties\\)")
                .containsPattern("msgx\\.pipeline\\.claim-batch +200 +\\(default\\)")
                .containsPattern("msgx\\.store\\.statement-timeout +1m +\\(default\\)")
                .containsPattern("msgx\\.store\\.password +\\(set\\) +\\(site\\.properties\\)")
                .contains("jdbc:mysql://msgx:***@aodb/sis", "Configuration valid.")
                .doesNotContain("StorePass1", "UrlPass2", "Token3");
    }

    @Test
    void an_invalid_file_exits_two_with_every_problem_and_json_says_the_same() throws Exception {
        var file = dir.resolve("broken.properties");
        Files.writeString(file, String.join("\n", "msgx.store.url=jdbc:postgresql://db/msgx",
                "msgx.mailbox.url=jdbc:mysql://aodb/sis", "msgx.pipeline.claim-batch=lots"));

        int code = check("config", "check", "--json", "-c", file.toString());

        assertThat(code).isEqualTo(Main.USAGE);
        var json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(json.get("valid").asBoolean()).isFalse();
        assertThat(json.get("problems").toString()).contains("msgx.kafka.bootstrap-servers: missing",
                "msgx.pipeline.claim-batch = 'lots'");
        assertThat(json.get("keys").get(0).get("key").asText()).isEqualTo("msgx.store.kind");
        assertThat(json.get("keys").get(0).get("source").asText()).isEqualTo("default");
    }
}
