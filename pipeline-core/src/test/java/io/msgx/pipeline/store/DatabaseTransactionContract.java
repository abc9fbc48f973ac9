package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineTransaction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link TransactionContract}, plus what the database stores add: a transaction cannot be used after it ended
 * (its connection went back to the pool). Apart from {@link TransactionContract} since an in-memory fake ran that one alone
 * (D-101).
 */
public abstract class DatabaseTransactionContract extends TransactionContract {

    @Test
    void aTransactionKeptPastItsWorkRefusesToWrite() {
        PipelineTransaction leaked = store().inTransaction(tx -> tx);

        assertThatThrownBy(() -> leaked.queue().insertIfAbsent(1, null, clock.instant()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has ended");
        assertThat(store().queue().find(1)).isEmpty();
    }
}
