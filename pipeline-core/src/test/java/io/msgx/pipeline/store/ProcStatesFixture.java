package io.msgx.pipeline.store;

import io.msgx.pipeline.lifecycle.MarkSettlement;
import io.msgx.pipeline.lifecycle.RecordArchiving;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.ProcRecord;
import org.junit.jupiter.api.BeforeEach;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the processing-record contracts share: the store under test ({@link StoreContract}), its auto-committed
 * {@code PROC_STATE} ports, and ways to enqueue messages.
 */
public abstract class ProcStatesFixture extends StoreContract {

    protected MessageQueue queue;
    protected IdentityRegister identities;
    protected BackfillMarks backfillMarks;
    protected MessageReplays replays;
    protected MessageArchive archive;
    protected MessageQueries queries;
    /** The operators' reopening and reconciliation of abandoned marks, on the store. */
    protected MarkSettlement settlement;
    /** The archive of one record, on the store. */
    protected RecordArchiving archiving;

    @BeforeEach
    void openStore() {
        var store = store();
        queue = store.queue();
        identities = store.identities();
        backfillMarks = store.backfillMarks();
        replays = store.replays();
        archive = store.messageArchive();
        queries = store.messageQueries();
        settlement = new MarkSettlement(store);
        archiving = new RecordArchiving(store);
    }

    protected Instant now() {
        return clock.instant();
    }

    protected ProcRecord record(long msgId) {
        return queue.find(msgId).orElseThrow(() -> new AssertionError("no record of message " + msgId));
    }

    /** The business identity the fixture gives message {@code msgId}. */
    protected static String key(long msgId) {
        return "AODB|SCHD|DNLD|" + msgId;
    }

    /** Enqueued now, received five seconds earlier; no identity yet. */
    protected void enqueue(long... msgIds) {
        for (long msgId : msgIds) {
            assertThat(queue.insertIfAbsent(msgId, now().minusSeconds(5), now())).isTrue();
        }
    }

    /** Enqueued as {@link #enqueue} and bound to its identity {@link #key}. */
    protected void enqueueBound(long... msgIds) {
        enqueue(msgIds);
        for (long msgId : msgIds) {
            assertThat(IdentityBinder.bind(identities, queue, msgId, key(msgId), now())).isEqualTo(new IdentityBinding.Bound());
        }
    }
}
