package io.msgx.pipeline.store;

import io.msgx.pipeline.port.RawMessageCopies;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every store's {@link RawMessageCopies} must do (G-REPLAY-CHANNEL): keep a message's raw text once, find it,
 * and let the retention delete copies kept before a cutoff. A store's test class extends this and supplies a fresh,
 * empty store per test.
 */
public abstract class RawCopiesContract extends StoreContract {

    private Instant now() {
        return clock.instant();
    }

    @Test
    void aKeptCopyIsFound() {
        var copies = store().rawCopies();

        copies.keep(17, "<MSG><META><SNDR>AODB</SNDR></META></MSG>", now());

        assertThat(copies.find(17)).contains("<MSG><META><SNDR>AODB</SNDR></META></MSG>");
    }

    @Test
    void aMessageWithoutCopyHasNone() {
        var copies = store().rawCopies();
        copies.keep(17, "<MSG/>", now());

        assertThat(copies.find(18)).isEmpty();
    }

    @Test
    void keepingACopyAgainChangesNeitherItsTextNorItsTime() {
        var copies = store().rawCopies();
        var keptAt = now();
        copies.keep(17, "<MSG>first</MSG>", keptAt);
        clock.tick(Duration.ofDays(1));

        copies.keep(17, "<MSG>second</MSG>", now());

        assertThat(copies.find(17)).contains("<MSG>first</MSG>");
        assertThat(store().housekeeping().deleteRawCopiesBefore(keptAt.plusMillis(1), 10))
                .as("still kept at the first time").isEqualTo(1);
        assertThat(copies.find(17)).isEmpty();
    }

    @Test
    void aLargeTextOutsideAsciiIsKeptWhole() {
        var copies = store().rawCopies();
        var text = "<MSG><REMK>" + "航班延误，旅客请到柜台办理。𠀀".repeat(700) + "</REMK></MSG>";
        assertThat(text.length()).isGreaterThan(10_000);

        copies.keep(17, text, now());

        assertThat(copies.find(17)).contains(text);
    }

    @Test
    void onlyCopiesKeptBeforeTheCutoffAreDeleted() {
        var copies = store().rawCopies();
        copies.keep(1, "<MSG>1</MSG>", now());
        clock.tick(Duration.ofHours(1));
        var cutoff = now();
        copies.keep(2, "<MSG>2</MSG>", now());

        assertThat(store().housekeeping().deleteRawCopiesBefore(cutoff, 10)).isEqualTo(1);

        assertThat(copies.find(1)).isEmpty();
        assertThat(copies.find(2)).contains("<MSG>2</MSG>");
    }

    @Test
    void aDeletedCopyCanBeKeptAgain() {
        var copies = store().rawCopies();
        copies.keep(17, "<MSG>old</MSG>", now());
        clock.tick(Duration.ofDays(1));
        store().housekeeping().deleteRawCopiesBefore(now(), 10);

        copies.keep(17, "<MSG>new</MSG>", now());

        assertThat(copies.find(17)).contains("<MSG>new</MSG>");
    }
}
