package io.msgx.pipeline.store;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Operator text cut to its column: by characters, by UTF-8 bytes, and never through a surrogate pair. */
class ColumnTextTest {

    /** U+1F6EB AIRPLANE DEPARTURE: one code point, two chars (a surrogate pair), four bytes in UTF-8. */
    private static final String PLANE = "\uD83D\uDEEB";

    @Test
    void nullStaysNullAndAShortTextStaysAsItIs() {
        assertThat(ColumnText.fitted(null, 10)).isNull();
        assertThat(ColumnText.fitted(null, 10, 4000)).isNull();
        var text = "lost connection";
        assertThat(ColumnText.fitted(text, 15)).isSameAs(text);
        assertThat(ColumnText.fitted(text, 15, 15)).isSameAs(text);
    }

    @Test
    void aLongTextIsCutToTheWidth() {
        assertThat(ColumnText.fitted("abcdefghij", 4)).isEqualTo("abcd");
    }

    @Test
    void aCutThroughASurrogatePairLeavesTheWholePairOut() {
        var text = "abc" + PLANE + "def";
        assertThat(ColumnText.fitted(text, 4)).isEqualTo("abc");
        assertThat(ColumnText.fitted(text, 5)).isEqualTo("abc" + PLANE);
        assertThat(ColumnText.fitted(text, 3)).isEqualTo("abc");
        assertThat(ColumnText.fitted(PLANE + "x", 1)).isEmpty();
    }

    @Test
    void aByteBoundCutsTextOfWideCharactersBeforeTheWidth() {
        var text = "é".repeat(3000); // 2 bytes each in UTF-8
        assertThat(ColumnText.fitted(text, 4000, 4000)).hasSize(2000);
        assertThat(ColumnText.fitted("€".repeat(2000), 2000, 4000)).hasSize(1333); // 3 bytes each
        assertThat(ColumnText.fitted("a".repeat(5000), 4000, 4000)).hasSize(4000);
    }

    @Test
    void aByteBoundNeverSplitsASurrogatePair() {
        // "a" then planes: 1 + 4n bytes; 4000 bytes hold "a" and 999 planes (3997 bytes), not half of the next one.
        var text = "a" + PLANE.repeat(1500);
        var fitted = ColumnText.fitted(text, 4000, 4000);
        assertThat(fitted).isEqualTo("a" + PLANE.repeat(999));
        assertThat(Character.isHighSurrogate(fitted.charAt(fitted.length() - 1))).isFalse();
    }
}
