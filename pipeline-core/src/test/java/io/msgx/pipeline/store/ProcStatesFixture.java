package io.msgx.pipeline.store;

import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.BeforeEach;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the processing-record contracts share: a settable clock, the store under test, and ways to enqueue
 * messages. Each contract supplies a fresh store through {@link #store()}.
 */
public abstract class ProcStatesFixture {

    protected final SettableClock clock = SettableClock.atExampleDay();
    protected ProcStates states;

    /** A fresh, empty store, using {@link #clock}. */
    protected abstract PipelineStore store();

    @BeforeEach
    void openStore() {
        states = store().procStates();
    }

    protected Instant now() {
        return clock.instant();
    }

    protected ProcRecord record(long msgId) {
        return states.find(msgId).orElseThrow(() -> new AssertionError("no record of message " + msgId));
    }

    /** The business identity the fixture gives message {@code msgId}. */
    protected static String key(long msgId) {
        return "AODB|SCHD|DNLD|" + msgId;
    }

    /** Enqueued now, received five seconds earlier; no identity yet. */
    protected void enqueue(long... msgIds) {
        for (long msgId : msgIds) {
            assertThat(states.insertIfAbsent(msgId, now().minusSeconds(5), now())).isTrue();
        }
    }

    /** Enqueued as {@link #enqueue} and bound to its identity {@link #key}. */
    protected void enqueueBound(long... msgIds) {
        enqueue(msgIds);
        for (long msgId : msgIds) {
            assertThat(states.bindIdentity(msgId, key(msgId), now())).isEqualTo(new IdentityBinding.Bound());
        }
    }
}
