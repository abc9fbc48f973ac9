package io.msgx.pipeline.store;

/** Our database could not be reached or did not answer in time. Retried; never mistaken for an empty answer. */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
