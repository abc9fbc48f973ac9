package io.msgx.pipeline.port;

/**
 * The store's ports ({@link StorePorts}) bound to one open transaction, and the two that exist only inside one; valid
 * only inside {@link PipelineStore.TransactionWork}.
 */
public interface PipelineTransaction extends StorePorts {

    /** Flight state, history and trail; written only inside a locked transaction. */
    FlightStore flights();

    /** Flight history cleanup; use only inside a locked transaction. */
    FlightHistory flightHistory();
}
