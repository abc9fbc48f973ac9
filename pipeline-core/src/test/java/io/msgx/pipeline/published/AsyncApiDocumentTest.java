package io.msgx.pipeline.published;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.msgx.pipeline.testing.PublishedContract;
import io.msgx.pipeline.testing.PublishedContract.Topic;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/asyncapi.yaml is AsyncAPI 3.0.0, names only files that exist, and declares for each message the headers that
 * {@link PublishedContract} checks and the schema of its topic.
 */
class AsyncApiDocumentTest {

    private static final Map<String, Topic> CHANNELS = Map.of("flightChange", Topic.MSG, "flightState", Topic.SCHD,
            "referenceRecord", Topic.REFERENCE);

    private static final Map<Topic, String> ADDRESSES = Map.of(Topic.MSG, "msgx.flight.msg", Topic.SCHD,
            "msgx.flight.schd", Topic.REFERENCE, "msgx.reference");

    private final Path docs = PublishedContract.repositoryRoot().resolve("docs");
    private final JsonNode document = read(docs.resolve("asyncapi.yaml"));

    @Test
    void itIsAsyncApi3() {
        assertThat(document.path("asyncapi").asText()).isEqualTo("3.0.0");
        assertThat(document.at("/info/title").asText()).isEqualTo("msgexchange");
        assertThat(document.at("/info/version").asText()).isEqualTo("1.0.0");
        assertThat(document.at("/info/description").asText()).contains("consumers.md");
    }

    @Test
    void everyReferenceResolves() {
        var references = new ArrayList<String>();
        collectReferences(document, references);
        assertThat(references).isNotEmpty();
        var unresolved = new ArrayList<String>();
        for (var reference : references) {
            if (reference.startsWith("#")) {
                if (document.at(reference.substring(1)).isMissingNode()) {
                    unresolved.add(reference + " (no such node in asyncapi.yaml)");
                }
            } else {
                var file = docs.resolve(reference).normalize();
                if (!file.startsWith(PublishedContract.schemasFolder()) || !Files.isRegularFile(file)) {
                    unresolved.add(reference + " (no such file in docs/schemas)");
                }
            }
        }
        assertThat(unresolved).isEmpty();
    }

    @Test
    void eachChannelCarriesItsTopicsMessageHeadersSchemaKeyAndCleanupPolicy() {
        assertThat(names(document.path("channels"))).containsExactlyInAnyOrderElementsOf(CHANNELS.keySet());
        for (var channel : CHANNELS.entrySet()) {
            var topic = channel.getValue();
            var node = document.path("channels").path(channel.getKey());
            assertThat(node.path("address").asText()).isEqualTo(ADDRESSES.get(topic));
            assertThat(node.path("description").asText()).contains("configurable").contains("Key:");
            assertThat(node.at("/bindings/kafka/topicConfiguration/cleanup.policy/0").asText())
                    .isEqualTo(topic == Topic.MSG ? "delete" : "compact");

            var message = document.at(node.at("/messages/" + channel.getKey() + "/$ref").asText().substring(1));
            assertThat(message.path("contentType").asText()).isEqualTo("application/json");
            assertThat(message.at("/payload/$ref").asText()).isEqualTo("./schemas/" + topic.schemaFile());
            assertThat(message.at("/bindings/kafka/key/type").asText()).isEqualTo("string");
            var headers = message.path("headers");
            assertThat(names(headers.path("properties"))).as(channel.getKey() + "'s headers")
                    .containsExactlyElementsOf(PublishedContract.headerNames(topic));
            assertThat(texts(headers.path("required"))).as(channel.getKey() + "'s required headers")
                    .containsExactlyElementsOf(PublishedContract.headerNames(topic));
            assertThat(headers.at("/properties/ce_type/const").asText()).isEqualTo(topic.ceType());

            var operations = new ArrayList<String>();
            document.path("operations").forEach(operation -> {
                if (operation.at("/channel/$ref").asText().equals("#/channels/" + channel.getKey())) {
                    operations.add(operation.path("action").asText());
                }
            });
            assertThat(operations).as(channel.getKey() + "'s operations").containsExactly("send");
        }
    }

    private static void collectReferences(JsonNode node, List<String> references) {
        if (node.isObject()) {
            node.properties().forEach(entry -> {
                if (entry.getKey().equals("$ref")) {
                    references.add(entry.getValue().asText());
                } else {
                    collectReferences(entry.getValue(), references);
                }
            });
        } else if (node.isArray()) {
            node.forEach(element -> collectReferences(element, references));
        }
    }

    private static List<String> names(JsonNode object) {
        var names = new ArrayList<String>();
        object.properties().forEach(entry -> names.add(entry.getKey()));
        return names;
    }

    private static List<String> texts(JsonNode array) {
        var texts = new LinkedHashSet<String>();
        array.forEach(element -> texts.add(element.asText()));
        return new ArrayList<>(texts);
    }

    private static JsonNode read(Path file) {
        try {
            return new YAMLMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalStateException(file + " is not readable YAML", e);
        }
    }
}
