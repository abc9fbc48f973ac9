package io.msgx.domain.flight;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Optional;

/**
 * The SIS body time format {@code ddMMMyyHHmm} ({@code 11MAR240835}): airport local time, English month
 * letters in any case, two-digit year read as 20yy.
 */
public final class SisTime {

    private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("dd")
            .appendPattern("MMM")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 2000)
            .appendPattern("HHmm")
            .toFormatter(Locale.ENGLISH)
            .withResolverStyle(ResolverStyle.STRICT)
            .withChronology(java.time.chrono.IsoChronology.INSTANCE);

    private static final DateTimeFormatter PRINT = DateTimeFormatter.ofPattern("ddMMMyyHHmm", Locale.ENGLISH);

    private SisTime() {
    }

    /** The local date-time the text names, or empty when it is not a valid {@code ddMMMyyHHmm} time. */
    public static Optional<LocalDateTime> parse(String text) {
        if (text == null || text.length() != 11) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDateTime.parse(text, FORMAT));
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** The canonical text of a local time: upper-case month, e.g. {@code 11MAR240835}. */
    public static String format(LocalDateTime time) {
        return PRINT.format(time).toUpperCase(Locale.ROOT);
    }
}
