package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.PipelineTransaction;
import io.msgx.pipeline.store.TransactionContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The transaction contract on Oracle, plus what this adapter adds: a transaction cannot be used after it ended. */
class OracleTransactionTest extends TransactionContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Test
    void aTransactionKeptPastItsWorkRefusesToWrite() {
        PipelineTransaction leaked = store().inTransaction(tx -> tx);

        assertThatThrownBy(() -> leaked.procStates().insertIfAbsent(1, null, clock.instant()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has ended");
        assertThat(store().procStates().find(1)).isEmpty();
    }
}
