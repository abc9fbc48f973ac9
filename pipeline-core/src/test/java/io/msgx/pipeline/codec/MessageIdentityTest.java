package io.msgx.pipeline.codec;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class MessageIdentityTest {

    private final MessageMeta meta = new MessageMeta("AODB", "RMS", "schd", "dnld", "345935",
            LocalDateTime.of(2026, 3, 11, 22, 31, 26), null);

    @Test
    void identityIsSenderTypeSubtypeSequence() {
        assertThat(MessageIdentity.of(meta, false)).isEqualTo(new MessageIdentity("AODB|SCHD|DNLD|345935"));
    }

    @Test
    void dayBoundaryAddsTheSendDay() {
        assertThat(MessageIdentity.of(meta, true).key()).isEqualTo("AODB|SCHD|DNLD|345935|20260311");
    }

    @Test
    void a_part_too_long_for_the_column_is_shortened_to_its_start_and_digest() {
        var longSequence = "9".repeat(500);
        var key = MessageIdentity.of(withSequence(longSequence), true).key();

        assertThat(key).hasSizeLessThanOrEqualTo(200).startsWith("AODB|SCHD|DNLD|9999999999999999~").endsWith("|20260311");
        assertThat(key.split("\\|")[3]).hasSize(MessageIdentity.PART_WIDTH);
        assertThat(MessageIdentity.of(withSequence(longSequence), true).key()).as("the same part, the same key")
                .isEqualTo(key);
        assertThat(MessageIdentity.of(withSequence("9".repeat(499) + "8"), true).key()).as("same start, other digest")
                .isNotEqualTo(key);
    }

    @Test
    void a_long_part_in_a_key_that_fits_is_kept_as_it_is() {
        var sequence = "7".repeat(100);

        assertThat(MessageIdentity.of(withSequence(sequence), true).key())
                .isEqualTo("AODB|SCHD|DNLD|" + sequence + "|20260311");
    }

    /**
     * Every key fits IDENTITY_KEY and keeps its parts and the day; a key that fits is the parts as they are; two
     * sequences, even with a long start in common, never make the same key.
     */
    @Property(tries = 300)
    void every_key_fits_the_column_and_tells_sequences_apart(@ForAll("parts") String start,
                                                             @ForAll("parts") String sequence,
                                                             @ForAll("parts") String other,
                                                             @ForAll("parts") String subtype) {
        var key = MessageIdentity.of(meta(subtype, start + sequence), true).key();
        var verbatim = "AODB|SCHD|" + subtype.toUpperCase(Locale.ROOT) + "|" + start + sequence + "|20260311";

        assertThat(key.codePointCount(0, key.length())).isLessThanOrEqualTo(200);
        assertThat(key.split("\\|")).hasSize(5);
        assertThat(MessageIdentity.algorithmChange(Optional.of(key), true)).as("still read as made with the day").isEmpty();
        if (verbatim.codePointCount(0, verbatim.length()) <= 200) {
            assertThat(key).as("a key that fits is kept as it is").isEqualTo(verbatim);
        }
        if (!other.equals(sequence)) {
            assertThat(MessageIdentity.of(meta(subtype, start + other), true).key()).isNotEqualTo(key);
        }
    }

    /** Printable text without {@code |}, some of it outside the BMP (two UTF-16 units a character). */
    @Provide
    Arbitrary<String> parts() {
        var character = Arbitraries.frequencyOf(
                Tuple.of(9, Arbitraries.chars().range('!', '~').filter(c -> c != '|').map(String::valueOf)),
                Tuple.of(1, Arbitraries.of("\uD83D\uDE80", "\uD840\uDC00", "\u00E9")));
        return character.list().ofMinSize(1).ofMaxSize(300).map(chars -> String.join("", chars));
    }

    private static MessageMeta meta(String subtype, String sequence) {
        return new MessageMeta("AODB", "RMS", "schd", subtype, sequence, LocalDateTime.of(2026, 3, 11, 22, 31, 26), null);
    }

    private static MessageMeta withSequence(String sequence) {
        return meta("dnld", sequence);
    }
}
