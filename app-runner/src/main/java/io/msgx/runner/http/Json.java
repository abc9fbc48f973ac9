package io.msgx.runner.http;

import java.util.List;
import java.util.Map;

/** Just enough JSON writing for the flat answers of this package: no library for four shapes of answer. */
final class Json {

    private final StringBuilder text = new StringBuilder("{");

    private Json() {
    }

    static Json object() {
        return new Json();
    }

    Json put(String key, String value) {
        return putRaw(key, value == null ? "null" : quote(value));
    }

    Json put(String key, long value) {
        return putRaw(key, Long.toString(value));
    }

    Json put(String key, boolean value) {
        return putRaw(key, Boolean.toString(value));
    }

    /** Put a value that is JSON already (an array or object built here). */
    Json putRaw(String key, String json) {
        if (text.length() > 1) {
            text.append(',');
        }
        text.append(quote(key)).append(':').append(json);
        return this;
    }

    /** A flat object from {@code fields}: text, whole numbers, booleans and nulls, in the map's order. */
    static String object(Map<String, ?> fields) {
        var json = object();
        fields.forEach((key, value) -> {
            if (value == null) {
                json.putRaw(key, "null");
            } else if (value instanceof Number number) {
                json.put(key, number.longValue());
            } else if (value instanceof Boolean flag) {
                json.put(key, flag);
            } else {
                json.put(key, value.toString());
            }
        });
        return json.toString();
    }

    /** {@code {"error":"<reason>"}}. */
    static String error(String reason) {
        return object().put("error", reason).toString();
    }

    /** An array of elements that are JSON already. */
    static String array(List<String> jsonElements) {
        return "[" + String.join(",", jsonElements) + "]";
    }

    static String quote(String value) {
        var out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    @Override
    public String toString() {
        return text + "}";
    }
}
