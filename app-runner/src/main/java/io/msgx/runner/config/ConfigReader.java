package io.msgx.runner.config;

import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Typed reading of a {@link ConfigSource}. Every problem is collected with its key, the value given, where it
 * came from and what was expected; {@link #verify()} throws them all at once, so one start-up shows every
 * mistake. Secret values are never echoed.
 */
public final class ConfigReader {

    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private final ConfigSource source;
    private final List<String> problems = new ArrayList<>();
    /** Each key read so far with the value in effect (given, or the default), for {@code config check}. */
    private final java.util.Map<String, String> effective = new java.util.LinkedHashMap<>();

    public ConfigReader(ConfigSource source) {
        this.source = source;
        source.all().keySet().stream().filter(key -> key.startsWith("msgx.") && !Keys.known(key)).sorted()
                .forEach(key -> problems.add(key + " (from " + source.originOf(key) + "): not a key this build knows; "
                        + ClosestKey.toKey(key).map(near -> "did you mean " + near + "? ").orElse("")
                        + "check the spelling against docs/reference.md"));
        source.unknownVariables().forEach(name -> problems.add("environment variable " + name
                + ": names no key this build knows; " + ClosestKey.toVariable(name)
                .map(near -> "did you mean " + ConfigSource.variableOf(near) + " (" + near + ")? ").orElse("")
                + "every MSGX_* variable must be a key's (" + ConfigSource.variableOf(Keys.STORE_URL) + " sets "
                + Keys.STORE_URL + "), or one of " + Keys.NON_KEY_VARIABLES + " or under "
                + Keys.NON_KEY_VARIABLE_PREFIXES + " (docs/reference.md, \"Environment variables\")"));
    }

    public String string(String key, String fallback) {
        var value = source.get(key);
        var result = value == null || value.isBlank() ? fallback : value.strip();
        effective.put(key, result);
        return result;
    }

    /** A value that must be given; null (and a recorded problem) when it is not. */
    public String required(String key, String what) {
        var value = string(key, null);
        if (value == null) {
            problems.add(key + ": missing; expected " + what + " (or set " + ConfigSource.variableOf(key) + ")");
        }
        return value;
    }

    public int integer(String key, int fallback, int min, int max) {
        return parse(key, fallback, "a whole number from " + min + " to " + max, text -> {
            int value = Integer.parseInt(text);
            if (value < min || value > max) {
                throw new IllegalArgumentException();
            }
            return value;
        });
    }

    public boolean bool(String key, boolean fallback) {
        return parse(key, fallback, "true or false", text -> switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException();
        });
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 7d}, or ISO-8601 ({@code PT30S}). */
    public Duration duration(String key, Duration fallback) {
        return parse(key, fallback, "a duration like 500ms, 30s, 5m, 2h, 7d or PT30S", ConfigReader::toDuration);
    }

    public List<Duration> durations(String key, List<Duration> fallback) {
        return parse(key, fallback, "a comma-separated list of durations like 5s,30s,2m",
                text -> Arrays.stream(text.split(",")).map(String::strip).map(ConfigReader::toDuration).toList());
    }

    public List<String> list(String key, List<String> fallback) {
        return parse(key, fallback, "a comma-separated list",
                text -> Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList());
    }

    /**
     * A comma-separated list whose empty value means something: a key given with an empty (blank) value is the empty
     * list, where {@link #list} would take the default; a key not given at all is {@code fallback}.
     */
    public List<String> listOrEmpty(String key, List<String> fallback) {
        var given = source.get(key);
        if (given != null && given.isBlank()) {
            effective.put(key, "");
            return List.of();
        }
        return list(key, fallback);
    }

    public ZoneId zone(String key, ZoneId fallback) {
        return parse(key, fallback, "a time-zone ID like Asia/Shanghai", ZoneId::of);
    }

    public LocalTime time(String key, LocalTime fallback) {
        return parse(key, fallback, "a time of day like 00:00 or 04:30", LocalTime::parse);
    }

    public <E extends Enum<E>> E choice(String key, E fallback, Class<E> type) {
        return parse(key, fallback, "one of " + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT),
                text -> Enum.valueOf(type, text.toUpperCase(Locale.ROOT).replace('-', '_')));
    }

    /** Record a problem found while building settings objects (their own validation messages name the keys). */
    public void problem(String message) {
        problems.add(message);
    }

    /** Run a constructor that validates, turning its refusal into a recorded problem; null when refused. */
    public <T> T checked(java.util.function.Supplier<T> construction) {
        try {
            return construction.get();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return null;
        }
    }

    /** The problems recorded so far. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Each key read so far with its value in effect, unmasked (callers mask secrets). */
    public java.util.Map<String, String> effective() {
        return java.util.Collections.unmodifiableMap(effective);
    }

    /** A default as the configuration would write it: {@code 30s} rather than {@code PT30S}. */
    private static String shown(Object value) {
        if (value instanceof Duration duration) {
            return written(duration);
        }
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(ConfigReader::shown).toList());
        }
        if (value instanceof Enum<?> choice) {
            return choice.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        return String.valueOf(value);
    }

    static String written(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    public void verify() {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    private <T> T parse(String key, T fallback, String expected, Function<String, T> parser) {
        var text = string(key, null);
        if (text == null) {
            effective.put(key, fallback == null ? null : shown(fallback));
            return fallback;
        }
        try {
            return parser.apply(text);
        } catch (RuntimeException e) {
            var shown = Keys.secret(key) ? "(secret)" : "'" + text + "'";
            problems.add(key + " = " + shown + " (from " + source.originOf(key) + "): expected " + expected);
            return fallback;
        }
    }

    static Duration toDuration(String text) {
        var matcher = SHORT_DURATION.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
            };
        }
        return Duration.parse(text.strip().toUpperCase(Locale.ROOT));
    }
}
