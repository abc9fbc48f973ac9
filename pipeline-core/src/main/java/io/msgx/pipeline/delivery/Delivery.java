package io.msgx.pipeline.delivery;

import java.util.Objects;

/** What the sink says about one event. */
public sealed interface Delivery {

    /** The broker acknowledged the record. */
    record Delivered() implements Delivery {
    }

    /** The record was not acknowledged (refused, timed out, never sent); the reason says which. */
    record Failed(String reason) implements Delivery {
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static Delivery delivered() {
        return new Delivered();
    }
}
