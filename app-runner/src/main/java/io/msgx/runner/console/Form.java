package io.msgx.runner.console;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A query string or an {@code application/x-www-form-urlencoded} body: every value of every name, in order. */
final class Form {

    /** A form the console posts is a few IDs and a note; anything larger is refused (413). */
    static final int MAX_BODY_BYTES = 64 * 1024;

    private final Map<String, List<String>> values;

    private Form(Map<String, List<String>> values) {
        this.values = values;
    }

    static Form parse(String encoded) {
        var values = new LinkedHashMap<String, List<String>>();
        if (encoded != null && !encoded.isEmpty()) {
            for (var pair : encoded.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                var name = decode(eq < 0 ? pair : pair.substring(0, eq));
                var value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            }
        }
        return new Form(values);
    }

    /** The body of a POST; null when it is larger than {@link #MAX_BODY_BYTES}. */
    static Form read(InputStream body) throws IOException {
        var bytes = body.readNBytes(MAX_BODY_BYTES + 1);
        if (bytes.length > MAX_BODY_BYTES) {
            return null;
        }
        return parse(new String(bytes, StandardCharsets.US_ASCII));
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** The first value, stripped; null when absent or blank. */
    String get(String name) {
        var all = values.get(name);
        if (all == null || all.isEmpty()) {
            return null;
        }
        var value = all.get(0).strip();
        return value.isEmpty() ? null : value;
    }

    /**
     * Every mailbox ID named by {@code name}: its values may repeat (checkboxes) and each may list several IDs
     * separated by blanks or commas.
     *
     * @throws IllegalArgumentException naming the first value that is not a mailbox ID
     */
    List<Long> ids(String name) {
        var ids = new ArrayList<Long>();
        for (var value : values.getOrDefault(name, List.of())) {
            for (var part : value.split("[\\s,]+")) {
                if (part.isEmpty()) {
                    continue;
                }
                try {
                    long id = Long.parseLong(part);
                    if (id <= 0) {
                        throw new NumberFormatException();
                    }
                    ids.add(id);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a mailbox ID: '" + part + "'");
                }
            }
        }
        return ids;
    }
}
