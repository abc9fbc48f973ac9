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
 * letters in any case, two-digit year read as 20yy. A date alone, {@code ddMMMyy} ({@code 11MAR24}), is the start of
 * that day (sis-format v3 §10).
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

    private static final DateTimeFormatter DATE_ONLY = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("dd")
            .appendPattern("MMM")
            .appendValueReduced(ChronoField.YEAR, 2, 2, 2000)
            .toFormatter(Locale.ENGLISH)
            .withResolverStyle(ResolverStyle.STRICT)
            .withChronology(java.time.chrono.IsoChronology.INSTANCE);

    private static final DateTimeFormatter PRINT = DateTimeFormatter.ofPattern("ddMMMyyHHmm", Locale.ENGLISH);

    private SisTime() {
    }

    /**
     * The local date-time the text names, or empty when it is neither a valid {@code ddMMMyyHHmm} time nor a valid
     * {@code ddMMMyy} date (then the start of that day).
     */
    public static Optional<LocalDateTime> parse(String text) {
        if (text == null || text.length() != 11 && text.length() != 7) {
            return Optional.empty();
        }
        try {
            return Optional.of(text.length() == 11 ? LocalDateTime.parse(text, FORMAT)
                    : java.time.LocalDate.parse(text, DATE_ONLY).atStartOfDay());
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** The canonical text of a local time: upper-case month, e.g. {@code 11MAR240835}. */
    public static String format(LocalDateTime time) {
        return PRINT.format(time).toUpperCase(Locale.ROOT);
    }
}
