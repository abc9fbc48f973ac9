package io.msgx.runner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.PrintWriter;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes a command's answer as JSON: maps in insertion order, instants and dates as ISO text. */
final class JsonOutput {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonOutput() {
    }

    /**
     * A JSON object of {@code name, value, name, value, ...}, in that order; a value may be null (Map.of refuses
     * it).
     */
    static Map<String, Object> object(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values come in pairs");
        }
        var object = new LinkedHashMap<String, Object>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            object.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return object;
    }

    static void print(PrintWriter out, Map<String, ?> value) {
        try {
            out.println(MAPPER.writeValueAsString(plain(value)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("could not write JSON", e);
        }
        out.flush();
    }

    private static Object plain(Object value) {
        if (value instanceof Map<?, ?> map) {
            var copy = new LinkedHashMap<String, Object>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), plain(v)));
            return copy;
        }
        if (value instanceof Iterable<?> items) {
            var list = new java.util.ArrayList<Object>();
            items.forEach(item -> list.add(plain(item)));
            return list;
        }
        if (value instanceof Instant || value instanceof LocalDate || value instanceof Enum<?>) {
            return value.toString();
        }
        return value;
    }
}
