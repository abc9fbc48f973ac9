package io.msgx.pipeline.codec;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static io.msgx.pipeline.codec.CodecFixtures.CODEC;
import static org.assertj.core.api.Assertions.assertThat;

class PeekTest {

    @Test
    void peekReadsTypeAndSubtypeOfATruncatedDocument() {
        String truncated = "<?xml version=\"1.0\"?>\n<MSG><META><SNDR>AODB</SNDR>\n  <TYPE> ldm </TYPE>\n  <STYP>LOAD</STYP><SEQN>1</SE";

        assertThat(CODEC.decode(truncated)).isInstanceOf(DecodeResult.Malformed.class);
        assertThat(CODEC.peek(truncated)).isEqualTo(new Peek(Optional.of("LDM"), Optional.of("LOAD")));
    }

    @Test
    void peekReadsABrokenDocument() {
        String broken = "<MSG><META><TYPE>FLOP</TYPE><STYP>GTDT</STYP><<<&&& </META><FLOP><FLID>1</FLOP>";

        assertThat(CODEC.peek(broken)).isEqualTo(new Peek(Optional.of("FLOP"), Optional.of("GTDT")));
    }

    @Test
    void aValueCutOffByTruncationIsNotTrusted() {
        assertThat(CODEC.peek("<MSG><META><TYPE>SCHD</TYPE><STYP>DN")).isEqualTo(new Peek(Optional.of("SCHD"), Optional.empty()));
        assertThat(CODEC.peek("no xml here")).isEqualTo(new Peek(Optional.empty(), Optional.empty()));
        assertThat(CODEC.peek(null)).isEqualTo(new Peek(Optional.empty(), Optional.empty()));
    }

    @Test
    void peekIsLinearOnPathologicalText() {
        String hostile = "<TYPE ".repeat(300_000);

        assertThat(CODEC.peek(hostile).type()).isEmpty();
    }
}
