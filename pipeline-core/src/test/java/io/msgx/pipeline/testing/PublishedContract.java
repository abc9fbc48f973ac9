package io.msgx.pipeline.testing;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The consumer contract (docs/consumers.md) as a test checks it: a value against the committed JSON Schemas in
 * {@code docs/schemas/} (not the generator's output, so a test checks what consumers were given), and a record's headers
 * against the header table. Every method answers the violations as readable lines, empty when the value or the headers
 * keep the contract, so a test can assert {@code isEmpty()} and see every problem at once.
 *
 * <p>Formats are asserted ({@code date-time}, {@code date}), not only annotated: a time that is not RFC 3339
 * ({@code 11MAR240835}) is a violation. Unknown fields are allowed, as the schemas allow them.
 */
public final class PublishedContract {

    /** The three topics, each with its value's schema, its {@code ce_type} and its {@code ce_id} form. */
    public enum Topic {
        /** Change notifications ({@code msgx.flight.msg} by default). */
        MSG("flight-change.schema.json", "io.msgx.flight.changed.v1", Pattern.compile("change:(?<subject>.+):(?<version>[0-9]+)")),
        /** Full flight states ({@code msgx.flight.schd} by default). */
        SCHD("flight-state.schema.json", "io.msgx.flight.state.v1", Pattern.compile("state:(?<subject>.+):(?<version>[0-9]+)")),
        /** Reference records ({@code msgx.reference} by default). */
        REFERENCE("reference-record.schema.json", "io.msgx.reference.record.v1",
                Pattern.compile("(?<subject>[^:]+:.+)@(?<msgid>[0-9]+)"));

        private final String schemaFile;
        private final String ceType;
        private final Pattern ceId;

        Topic(String schemaFile, String ceType, Pattern ceId) {
            this.schemaFile = schemaFile;
            this.ceType = ceType;
            this.ceId = ceId;
        }

        /** The file in {@code docs/schemas/} that describes this topic's values. */
        public String schemaFile() {
            return schemaFile;
        }

        public String ceType() {
            return ceType;
        }

        /** Whether a record of this topic carries {@code msgx_stateversion}: a flight's do, a reference record's not. */
        public boolean hasStateVersion() {
            return this != REFERENCE;
        }
    }

    public static final String SPEC_VERSION = "1.0";
    public static final String CONTENT_TYPE = "application/json";
    public static final String SOURCE_PREFIX = "/msgexchange/";

    private static final List<String> CLOUD_EVENTS_HEADERS = List.of("ce_specversion", "ce_id", "ce_source", "ce_type",
            "ce_subject", "ce_time", "content-type");

    /** RFC 3339 section 5.6 {@code date-time}: a full date, {@code T}, a full time with an offset. */
    private static final Pattern RFC_3339 = Pattern.compile(
            "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})");

    private static final Pattern COUNT = Pattern.compile("0|[1-9][0-9]*");

    private PublishedContract() {
    }

    /**
     * Where a value of {@code topic} breaks its committed schema: {@code msg value at $.cause: does not have a value in
     * the enumeration ["AODB", "RETENTION"]}. A null {@code json} is a tombstone, which has no value to check (its
     * headers do: {@link #headerViolations}).
     */
    public static List<String> violations(Topic topic, String json) {
        if (json == null) {
            return topic == Topic.MSG ? List.of("msg value: null, but msg never carries a tombstone") : List.of();
        }
        var schema = Schemas.INSTANCE.schemas.get(topic);
        var what = topic.name().toLowerCase(Locale.ROOT) + " value";
        try {
            var found = new ArrayList<String>();
            for (var error : schema.validate(json, InputFormat.JSON)) {
                found.add(what + " at " + error.getInstanceLocation() + ": " + error.getMessage());
            }
            return found;
        } catch (RuntimeException e) {
            return List.of(what + ": not a JSON document (" + e.getMessage() + "): " + json);
        }
    }

    /**
     * Where a record's headers break the header table of consumers.md: each CloudEvents attribute present and of its
     * form, {@code ce_subject} the subject {@code ce_id} names, {@code msgx_stateversion} (a flight's records) and
     * {@code msgx_msgid} present and whole numbers, {@code msgx_stateversion} absent on a reference record, and no
     * tombstone on {@code msg}. {@link #headerViolations(Topic, String, Map, boolean)} also checks the key.
     */
    public static List<String> headerViolations(Topic topic, Map<String, String> headers, boolean tombstone) {
        var found = new ArrayList<String>();
        var what = topic.name().toLowerCase(Locale.ROOT) + (tombstone ? " tombstone" : " record");
        if (tombstone && topic == Topic.MSG) {
            found.add(what + ": msg never carries a tombstone");
        }
        for (var name : headerNames(topic)) {
            if (headers.get(name) == null) {
                found.add(what + ": header " + name + " is missing");
            }
        }
        expect(found, what, headers, "ce_specversion", SPEC_VERSION);
        expect(found, what, headers, "ce_type", topic.ceType());
        expect(found, what, headers, "content-type", CONTENT_TYPE);
        var source = headers.get("ce_source");
        if (source != null && !(source.startsWith(SOURCE_PREFIX) && source.indexOf('/', SOURCE_PREFIX.length()) > SOURCE_PREFIX.length()
                && !source.endsWith("/"))) {
            found.add(what + ": ce_source is '" + source + "', not " + SOURCE_PREFIX + "<site>/<instance>");
        }
        var time = headers.get("ce_time");
        if (time != null && !isUtcTime(time)) {
            found.add(what + ": ce_time is '" + time + "', not an RFC 3339 time in UTC");
        }
        var stateVersion = headers.get("msgx_stateversion");
        if (topic.hasStateVersion()) {
            if (stateVersion != null && !(COUNT.matcher(stateVersion).matches() && !stateVersion.equals("0"))) {
                found.add(what + ": msgx_stateversion is '" + stateVersion + "', not a whole number from 1");
            }
        } else if (stateVersion != null) {
            found.add(what + ": msgx_stateversion is '" + stateVersion + "', but a reference record carries none");
        }
        var msgId = headers.get("msgx_msgid");
        if (msgId != null && !COUNT.matcher(msgId).matches()) {
            found.add(what + ": msgx_msgid is '" + msgId + "', not a whole number");
        }
        var id = headers.get("ce_id");
        if (id != null) {
            Matcher parts = topic.ceId.matcher(id);
            if (!parts.matches()) {
                found.add(what + ": ce_id is '" + id + "', not " + ceIdForm(topic));
            } else {
                var subject = headers.get("ce_subject");
                if (subject != null && !subject.equals(parts.group("subject"))) {
                    found.add(what + ": ce_subject is '" + subject + "' but ce_id '" + id + "' names '"
                            + parts.group("subject") + "'");
                }
                if (topic.hasStateVersion() && stateVersion != null && !stateVersion.equals(parts.group("version"))) {
                    found.add(what + ": msgx_stateversion is '" + stateVersion + "' but ce_id '" + id + "' names version "
                            + parts.group("version"));
                }
                if (!topic.hasStateVersion() && msgId != null && !msgId.equals(parts.group("msgid"))) {
                    found.add(what + ": msgx_msgid is '" + msgId + "' but ce_id '" + id + "' names message "
                            + parts.group("msgid"));
                }
            }
        }
        return found;
    }

    /** {@link #headerViolations(Topic, Map, boolean)}, and {@code ce_subject} must be the record's key. */
    public static List<String> headerViolations(Topic topic, String key, Map<String, String> headers, boolean tombstone) {
        var found = new ArrayList<>(headerViolations(topic, headers, tombstone));
        var subject = headers.get("ce_subject");
        if (subject != null && !subject.equals(key)) {
            found.add(topic.name().toLowerCase(Locale.ROOT) + " record: ce_subject is '" + subject
                    + "' but the key is '" + key + "'");
        }
        return found;
    }

    /** The headers every record of {@code topic} carries, in the order of consumers.md's table. */
    public static Set<String> headerNames(Topic topic) {
        var names = new LinkedHashSet<>(CLOUD_EVENTS_HEADERS);
        if (topic.hasStateVersion()) {
            names.add("msgx_stateversion");
        }
        names.add("msgx_msgid");
        return names;
    }

    /** The folder of the committed schemas, {@code docs/schemas/} of the repository. */
    public static Path schemasFolder() {
        return repositoryRoot().resolve("docs").resolve("schemas");
    }

    /** The repository's root: the first folder up from {@code user.dir} that has {@code docs/consumers.md}. */
    public static Path repositoryRoot() {
        var start = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        for (var folder = start; folder != null; folder = folder.getParent()) {
            if (Files.isRegularFile(folder.resolve("docs").resolve("consumers.md"))) {
                return folder;
            }
        }
        throw new IllegalStateException("no folder from " + start + " up has docs/consumers.md: run the tests inside"
                + " the msgexchange repository");
    }

    private static void expect(List<String> found, String what, Map<String, String> headers, String name, String expected) {
        var value = headers.get(name);
        if (value != null && !value.equals(expected)) {
            found.add(what + ": " + name + " is '" + value + "', not '" + expected + "'");
        }
    }

    private static boolean isUtcTime(String text) {
        if (!RFC_3339.matcher(text).matches()) {
            return false;
        }
        try {
            return OffsetDateTime.parse(text.toUpperCase(Locale.ROOT)).getOffset().equals(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static String ceIdForm(Topic topic) {
        return switch (topic) {
            case MSG -> "change:<FLID>:<stateVersion>";
            case SCHD -> "state:<FLID>:<stateVersion>";
            case REFERENCE -> "<RTYPE>:<RKEY>@<msgId>";
        };
    }

    /** The three committed schemas, read and compiled once per JVM. */
    private static final class Schemas {
        static final Schemas INSTANCE = new Schemas();

        final Map<Topic, Schema> schemas = new EnumMap<>(Topic.class);

        private Schemas() {
            var folder = schemasFolder();
            var texts = new LinkedHashMap<String, String>();
            var ids = new EnumMap<Topic, String>(Topic.class);
            for (var topic : Topic.values()) {
                var file = folder.resolve(topic.schemaFile());
                try {
                    var id = "https://msgx.io/schemas/" + topic.schemaFile();
                    texts.put(id, Files.readString(file));
                    ids.put(topic, id);
                } catch (IOException e) {
                    throw new UncheckedIOException("the committed schema " + file + " cannot be read", e);
                }
            }
            // Formats are assertions here (date-time, date), not annotations; places are JSON paths ($.GTDT[0].PGOT);
            // every $id resolves to its committed text, so nothing is fetched.
            var config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).pathType(PathType.JSON_PATH)
                    .build();
            var registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    builder -> builder.schemaRegistryConfig(config).schemas(texts));
            for (var topic : Topic.values()) {
                schemas.put(topic, registry.getSchema(SchemaLocation.of(ids.get(topic))));
            }
        }
    }
}
