package io.msgx.adapter.pg;

import io.msgx.pipeline.store.ReferenceDataContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The reference data contract on PostgreSQL, each test in a fresh schema. */
class PgReferenceDataTest extends ReferenceDataContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
}
