package io.msgx.pipeline.metrics;

/** Why the head of the FIFO queue does not move at a tick of the pump, as the {@code blocked} gauge tells it. */
public enum HeadBlock {
    /** There is no head, or the pump is processing it. */
    NOT_BLOCKED,
    /** The head is a kind no processor handles, waiting for its next attempt ({@code FAILED(UNSUPPORTED)}). */
    UNSUPPORTED,
    /** The head failed for another reason and waits for its next attempt. */
    BACKOFF,
    /** The head is above the watermark: intake has not confirmed that no smaller ID can still appear. */
    BEYOND_WATERMARK
}
