package io.msgx.adapter.pg;

import io.msgx.pipeline.store.LifecycleLockContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lifecycle lock on PostgreSQL: a session advisory lock per schema. */
class PgLifecycleLockTest extends LifecycleLockContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
