package io.msgx.runner.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Where settings come from: a file ({@code .properties}, or {@code .yml}/{@code .yaml} flattened to dotted keys),
 * overridden by environment variables. The variable of a key is the key upper-cased with dots and dashes as
 * underscores: {@code msgx.store.url} ↔ {@code MSGX_STORE_URL}, {@code msgx.pipeline.claim-batch} ↔
 * {@code MSGX_PIPELINE_CLAIM_BATCH}. A variable overrides only a key this build knows (or one under an open
 * prefix such as {@code msgx.kafka.producer.}), so unrelated {@code MSGX_*} variables are never guessed at; an
 * {@code MSGX_*} variable that names no key (and is not one of {@link Keys#NON_KEY_VARIABLES}) is kept as
 * {@link #unknownVariables()}, and {@link ConfigReader} refuses it with the nearest key: a misspelt override would otherwise
 * be ignored in silence, and the default it meant to replace would run.
 */
public final class ConfigSource {

    /** The prefix of the variables that belong to this service. */
    public static final String VARIABLE_PREFIX = "MSGX_";

    private final Map<String, String> values;
    private final Map<String, String> origins;
    private final List<String> unknownVariables;

    private ConfigSource(Map<String, String> values, Map<String, String> origins, List<String> unknownVariables) {
        this.values = Map.copyOf(values);
        this.origins = Map.copyOf(origins);
        this.unknownVariables = List.copyOf(unknownVariables);
    }

    /** The file (may be null: defaults only) overridden by {@code environment}. */
    public static ConfigSource load(Path file, Map<String, String> environment) {
        var values = new LinkedHashMap<String, String>();
        var origins = new LinkedHashMap<String, String>();
        if (file != null) {
            readFile(file).forEach((key, value) -> {
                values.put(key, value);
                origins.put(key, file.getFileName().toString());
            });
        }
        for (var key : Keys.ALL) {
            var value = environment.get(variableOf(key));
            if (value != null) {
                values.put(key, value);
                origins.put(key, "env " + variableOf(key));
            }
        }
        var understood = new java.util.HashSet<String>();
        Keys.ALL.forEach(key -> understood.add(variableOf(key)));
        for (var prefix : Keys.OPEN_PREFIXES) {
            var variablePrefix = variableOf(prefix);
            environment.forEach((name, value) -> {
                if (name.startsWith(variablePrefix)) {
                    var key = prefix + name.substring(variablePrefix.length()).toLowerCase(Locale.ROOT).replace('_', '.');
                    values.put(key, value);
                    origins.put(key, "env " + name);
                    understood.add(name);
                }
            });
        }
        var unknown = environment.keySet().stream()
                .filter(name -> name.startsWith(VARIABLE_PREFIX) && !understood.contains(name)
                        && !Keys.NON_KEY_VARIABLES.contains(name)
                        && Keys.NON_KEY_VARIABLE_PREFIXES.stream().noneMatch(name::startsWith))
                .sorted().toList();
        return new ConfigSource(values, origins, unknown);
    }

    /** A source of exactly these values (tests, the demo, the embedding API). */
    public static ConfigSource of(Map<String, String> values) {
        var origins = new LinkedHashMap<String, String>();
        values.keySet().forEach(key -> origins.put(key, "given"));
        return new ConfigSource(values, origins, List.of());
    }

    public static String variableOf(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String get(String key) {
        return values.get(key);
    }

    /** Where a key's value came from: the file's name, {@code env VAR}, or {@code given}. */
    public String originOf(String key) {
        return origins.getOrDefault(key, "default");
    }

    public Map<String, String> all() {
        return values;
    }

    /** The {@code MSGX_*} environment variables that name no key this build knows (sorted); refused by {@link ConfigReader}. */
    public List<String> unknownVariables() {
        return unknownVariables;
    }

    private static Map<String, String> readFile(Path file) {
        var name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            var flat = new LinkedHashMap<String, String>();
            if (name.endsWith(".yml") || name.endsWith(".yaml")) {
                flatten("", new YAMLMapper().readTree(reader), flat);
            } else {
                var properties = new Properties();
                properties.load(reader);
                properties.stringPropertyNames().forEach(key -> flat.put(key.strip(), properties.getProperty(key).strip()));
            }
            return flat;
        } catch (IOException e) {
            throw new ConfigException(List.of("--config " + file + ": cannot be read (" + e.getMessage()
                    + "); give a readable .properties or .yml file"));
        }
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> flat) {
        if (node == null || node.isNull()) {
            return;
        }
        if (node.isObject()) {
            node.fields().forEachRemaining(field ->
                    flatten(prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), flat));
        } else if (node.isArray()) {
            var items = new java.util.ArrayList<String>();
            node.forEach(item -> items.add(item.asText()));
            flat.put(prefix, String.join(",", items));
        } else {
            flat.put(prefix, node.asText());
        }
    }
}
