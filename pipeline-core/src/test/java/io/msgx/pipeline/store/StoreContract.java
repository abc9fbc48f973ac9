package io.msgx.pipeline.store;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

import java.time.Clock;
import javax.sql.DataSource;

/**
 * What every store contract starts from: a settable clock, and the store under test and its {@link StoreProbe}, both
 * from the store's {@link TestDatabase}. A store's test class extends a contract and registers its test database (a
 * fresh schema per test) on an instance field with {@code @RegisterExtension}; that is all it supplies.
 */
public abstract class StoreContract {

    protected final SettableClock clock = SettableClock.atExampleDay();
    /** This test's schema past the ports. */
    protected StoreProbe probe;
    private TestDatabase database;

    @BeforeEach
    void takeTheDatabase(TestDatabase database) {
        this.database = database;
        this.probe = database.probe();
    }

    /** The store of this test's fresh, empty schema, using {@link #clock} (the same one all through a test). */
    protected PipelineStore store() {
        return database.store(clock);
    }

    /** This test's database, for a contract that builds a store of its own on it. */
    protected TestDatabase database() {
        return database;
    }

    /**
     * A store's test database: a JUnit extension with a fresh schema per test, which hands itself to the contract's
     * {@code @BeforeEach} parameter.
     */
    public interface TestDatabase extends ParameterResolver {

        /** The store of this test's schema, created on first use with {@code clock}. */
        PipelineStore store(Clock clock);

        /** Another store of this test's schema, on {@code pool}. */
        PipelineStore storeOn(DataSource pool, Clock clock);

        /** Pooled, auto-commit connections to this test's schema. */
        DataSource dataSource();

        /** Reads and writes this test's schema past the ports. */
        StoreProbe probe();

        @Override
        default boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == TestDatabase.class;
        }

        @Override
        default Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return this;
        }
    }
}
