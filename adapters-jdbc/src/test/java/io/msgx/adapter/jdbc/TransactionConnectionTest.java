package io.msgx.adapter.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The connection of an open transaction: handed out while open, refused after, and its rollback-only mark. */
class TransactionConnectionTest {

    @Test
    void theConnectionIsHandedOutUntilTheTransactionEnds() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:")) {
            var transaction = new TransactionConnection(connection);
            assertThat(transaction.acquire()).isSameAs(connection);
            transaction.end();
            assertThatThrownBy(transaction::acquire).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("this PipelineTransaction has ended");
        }
    }

    @Test
    void theFirstReasonToRollBackIsKept() throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:h2:mem:")) {
            var transaction = new TransactionConnection(connection);
            assertThat(transaction.rollbackOnlyReason()).isNull();
            transaction.rollbackOnly("version 3 of flight 7 was archived already");
            transaction.rollbackOnly("a later reason");
            assertThat(transaction.rollbackOnlyReason()).isEqualTo("version 3 of flight 7 was archived already");
        }
    }
}
