package io.msgx.pipeline.codec;

import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;

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
}
