package io.msgx.adapter.pg;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.StoreUnavailableContract;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

import java.util.Map;

/**
 * The unavailability contract on PostgreSQL: the store's connections give up waiting for a row lock after 300 ms
 * ({@code lock_timeout}), and a port nothing listens on stands for a database that cannot be reached.
 */
class PgStoreUnavailableTest extends StoreUnavailableContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase(Map.of("options", "-c lock_timeout=300"));

    @Override
    protected PipelineStore unreachableStore() {
        var dataSource = new PGSimpleDataSource();
        dataSource.setUrl("jdbc:postgresql://127.0.0.1:1/test");
        dataSource.setUser("postgres");
        dataSource.setConnectTimeout(1);
        return PgPipelineStore.create(dataSource, clock);
    }
}
