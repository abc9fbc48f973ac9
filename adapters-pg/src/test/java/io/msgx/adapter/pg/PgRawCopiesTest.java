package io.msgx.adapter.pg;

import io.msgx.pipeline.store.RawCopiesContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The raw copies contract on PostgreSQL, each test in a fresh schema. */
class PgRawCopiesTest extends RawCopiesContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
