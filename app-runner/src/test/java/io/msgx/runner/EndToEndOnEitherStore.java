package io.msgx.runner;

import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An end-to-end test on the real parts with PostgreSQL as the store; its {@code ...OnOracle...} subclass runs the
 * same tests on the Oracle adapter by overriding {@link #services()}.
 */
abstract class EndToEndOnEitherStore {

    @RegisterExtension
    final RealServices services = services();

    /** The real parts, with the store this class runs on (PostgreSQL here). */
    RealServices services() {
        return new RealServices();
    }
}
