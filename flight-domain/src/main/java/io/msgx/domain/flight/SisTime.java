package io.msgx.domain.flight;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/**
 * The SIS body time format {@code ddMMMyyHHmm} ({@code 11MAR240835}): airport local time, English month
 * letters in any case, two-digit year read as 20yy. A date alone, {@code ddMMMyy} ({@code 11MAR24}), is the start of
 * that day (sis-format v3 §10).
 */
public final class SisTime {

    private static final DateTimeFormatter PRINT = DateTimeFormatter.ofPattern("ddMMMyyHHmm", Locale.ENGLISH);

    private static final String MONTHS = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";

    private SisTime() {
    }

    /**
     * The local date-time the text names, or empty when it is neither a valid {@code ddMMMyyHHmm} time nor a valid
     * {@code ddMMMyy} date (then the start of that day). Read by hand, not by a {@code DateTimeFormatter}: the codec asks
     * this of every time field of every message (D-121), and a formatter builds a parse context and resolves its fields
     * at each call. {@code SisTimeProperties} holds it to the strict formatter's answers.
     */
    public static Optional<LocalDateTime> parse(String text) {
        if (text == null || text.length() != 11 && text.length() != 7) {
            return Optional.empty();
        }
        int day = digits(text, 0);
        int month = month(text);
        int year = digits(text, 5);
        int hour = text.length() == 11 ? digits(text, 7) : 0;
        int minute = text.length() == 11 ? digits(text, 9) : 0;
        if (day < 1 || month < 1 || year < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || day > java.time.YearMonth.of(2000 + year, month).lengthOfMonth()) {
            return Optional.empty();
        }
        return Optional.of(LocalDateTime.of(2000 + year, month, day, hour, minute));
    }

    /** The two-digit number at {@code at}, or -1 when those are not two ASCII digits. */
    private static int digits(String text, int at) {
        char tens = text.charAt(at);
        char ones = text.charAt(at + 1);
        if (tens < '0' || tens > '9' || ones < '0' || ones > '9') {
            return -1;
        }
        return (tens - '0') * 10 + (ones - '0');
    }

    /** The month the English letters at 2..4 name, any case, from 1; -1 when they name none. */
    private static int month(String text) {
        for (int month = 0; month < 12; month++) {
            if (MONTHS.regionMatches(true, month * 3, text, 2, 3)) {
                return month + 1;
            }
        }
        return -1;
    }

    /** The canonical text of a local time: upper-case month, e.g. {@code 11MAR240835}. */
    public static String format(LocalDateTime time) {
        return PRINT.format(time).toUpperCase(Locale.ROOT);
    }
}
