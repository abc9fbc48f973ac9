package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcBackfillMarks;
import io.msgx.adapter.jdbc.JdbcMessageQueries;
import io.msgx.adapter.jdbc.JdbcMessageReplays;
import io.msgx.adapter.jdbc.JdbcPipelineStore;
import io.msgx.adapter.jdbc.JdbcTransaction;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.adapter.jdbc.TransactionConnection;
import io.msgx.pipeline.store.ProcStatePorts;
import org.jooq.ConnectionProvider;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.DataSourceConnectionProvider;
import org.jooq.impl.DefaultConfiguration;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.returnToPool;

/**
 * The pipeline's store on PostgreSQL (the reference store), with the guarantees of {@link JdbcPipelineStore}: the
 * shared statements, PostgreSQL's measured ones ({@link #procStatePorts}, {@link PgOutbox}), and a lifecycle lock
 * that is a session advisory lock.
 *
 * <p>SQL names no schema: the schema is whatever the data source's {@code search_path} names (the one
 * {@link PgSchema#migrate} was given). The data source must hand out auto-commit connections.
 */
public final class PgPipelineStore extends JdbcPipelineStore<PgOutbox> {

    private PgPipelineStore(DataSource dataSource, Clock clock, StoreJdbc sql) {
        super(dataSource, sql, procStatePorts(sql),
                new PgOutbox(sql, jooq(new DataSourceConnectionProvider(dataSource))), clock);
    }

    /**
     * A store over {@code dataSource} (pooled, auto-commit connections whose search path is the migrated schema).
     * {@code clock} stamps the audit times that no port method receives ({@code INBOX_CURSOR.UPDATED_AT}).
     */
    public static PgPipelineStore create(DataSource dataSource, Clock clock) {
        Objects.requireNonNull(dataSource, "dataSource");
        return new PgPipelineStore(dataSource, clock, StoreJdbc.autoCommit(PgDialect.POSTGRESQL, dataSource));
    }

    @Override
    protected JdbcTransaction<PgOutbox> transaction(TransactionConnection connection) {
        var sql = StoreJdbc.inTransaction(PgDialect.POSTGRESQL, connection);
        return new JdbcTransaction<>(connection, sql, procStatePorts(sql),
                new PgOutbox(sql, jooq(new TransactionConnectionProvider(connection))), clock);
    }

    /**
     * The {@code PROC_STATE} ports on {@code sql}: the shared statements, with PostgreSQL's measured ones for the
     * batches of the hot path ({@link PgMessageQueue}, {@link PgIdentityRegister}) and the shadow cleanup
     * ({@link PgMessageArchive}).
     */
    private static ProcStatePorts procStatePorts(StoreJdbc sql) {
        var queue = new PgMessageQueue(sql);
        return new ProcStatePorts(queue, new PgIdentityRegister(sql, queue), new JdbcBackfillMarks(sql),
                new JdbcMessageReplays(sql), new PgMessageArchive(sql), new JdbcMessageQueries(sql));
    }

    /** None: a locked transaction waits for {@code PIPELINE_LOCK} as long as the session's lock timeout lets it. */
    @Override
    protected String pipelineLockWait() {
        return "";
    }

    /**
     * A session advisory lock keyed by the store's schema ({@code current_schema()}), taken on a connection of its own
     * and held for the length of {@code work}; it waits for the holder (bounded by the session's statement timeout).
     * The lease uses another key, so the lifecycle lock never contends with it.
     */
    @Override
    public <T> T exclusiveLifecycle(java.util.function.Supplier<T> work) {
        Objects.requireNonNull(work, "work");
        Connection connection = openConnection("the lifecycle lock");
        try {
            try (var lock = connection.prepareStatement("SELECT pg_advisory_lock(hashtext('msgexchange-lifecycle:' || "
                    + "current_schema()))")) {
                lock.execute();
            } catch (SQLException e) {
                throw PgDialect.POSTGRESQL.failure("taking the lifecycle lock", e);
            }
            try {
                return work.get();
            } finally {
                try (var unlock = connection.prepareStatement("SELECT pg_advisory_unlock(hashtext("
                        + "'msgexchange-lifecycle:' || current_schema()))")) {
                    unlock.execute();
                } catch (SQLException ignored) {
                    // A broken session: its locks went with it.
                }
            }
        } finally {
            returnToPool(connection);
        }
    }

    private static DSLContext jooq(ConnectionProvider connections) {
        var settings = new Settings()
                .withRenderSchema(false)
                .withRenderQuotedNames(RenderQuotedNames.EXPLICIT_DEFAULT_QUOTED)
                .withExecuteLogging(false);
        return DSL.using(new DefaultConfiguration()
                .set(connections)
                .set(SQLDialect.POSTGRES)
                .set(settings));
    }
}
