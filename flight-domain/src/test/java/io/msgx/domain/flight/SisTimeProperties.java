package io.msgx.domain.flight;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.chrono.IsoChronology;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SisTime}'s hand-written reader says what the strict {@code DateTimeFormatter}s of the two forms say. */
class SisTimeProperties {

    private static final DateTimeFormatter TIME = strict(true);
    private static final DateTimeFormatter DATE = strict(false);

    private static DateTimeFormatter strict(boolean withTime) {
        var builder = new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern("dd").appendPattern("MMM")
                .appendValueReduced(ChronoField.YEAR, 2, 2, 2000);
        if (withTime) {
            builder.appendPattern("HHmm");
        }
        return builder.toFormatter(Locale.ENGLISH).withResolverStyle(ResolverStyle.STRICT)
                .withChronology(IsoChronology.INSTANCE);
    }

    /** What the formatters read: a time for 11 characters, the start of a day for 7, nothing otherwise. */
    private static Optional<LocalDateTime> reference(String text) {
        try {
            if (text.length() == 11) {
                return Optional.of(LocalDateTime.parse(text, TIME));
            }
            if (text.length() == 7) {
                return Optional.of(LocalDate.parse(text, DATE).atStartOfDay());
            }
        } catch (DateTimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    @Property(tries = 2000)
    void every_text_reads_as_the_strict_formatters_read_it(@ForAll("nearlyTimes") String text) {
        assertThat(SisTime.parse(text)).as(text).isEqualTo(reference(text));
    }

    @Property(tries = 500)
    void a_time_written_out_reads_back(@ForAll("times") LocalDateTime time) {
        assertThat(SisTime.parse(SisTime.format(time))).contains(time);
        assertThat(SisTime.parse(SisTime.format(time).substring(0, 7).toLowerCase(Locale.ROOT)))
                .contains(time.toLocalDate().atStartOfDay());
    }

    /** Texts shaped like times, with days, months, hours and minutes in and out of range, letters in any case. */
    @Provide
    Arbitrary<String> nearlyTimes() {
        var twoDigits = Arbitraries.integers().between(0, 99).map(n -> String.format("%02d", n));
        var month = Arbitraries.of("JAN", "feb", "Mar", "APR", "MAY", "jun", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
                "XYZ", "MA", "1AR");
        Arbitrary<String> time = Combinators.combine(twoDigits, month, twoDigits, twoDigits, twoDigits)
                .as((d, m, y, h, min) -> d + m + y + h + min);
        Arbitrary<String> date = Combinators.combine(twoDigits, month, twoDigits).as((d, m, y) -> d + m + y);
        Arbitrary<String> noise = Arbitraries.strings().withChars("0123456789ADEFJMNORSU -:").ofMinLength(0).ofMaxLength(12);
        return Arbitraries.oneOf(time, date, noise);
    }

    @Provide
    Arbitrary<LocalDateTime> times() {
        return Arbitraries.longs().between(0, 100L * 366 * 24 * 60 - 1)
                .map(minutes -> LocalDateTime.of(2000, 1, 1, 0, 0).plusMinutes(minutes))
                .filter(t -> t.getYear() < 2100);
    }
}
