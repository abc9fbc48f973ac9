package io.msgx.runner.http;

import io.msgx.pipeline.port.PipelineStore;

import java.util.Objects;

/** Our database answers: {@code INBOX_CURSOR} can be read ({@code store.inboxCursor().load()}). */
public final class StoreCheck implements ReadinessCheck {

    public static final String NAME = "store";

    private final PipelineStore store;

    public StoreCheck(PipelineStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Result check() {
        try {
            store.inboxCursor().load();
            return Result.up();
        } catch (RuntimeException e) {
            return Result.down("the pipeline store cannot read INBOX_CURSOR: " + e.getMessage()
                    + "; check the database connection settings and that the database is up and migrated");
        }
    }
}
