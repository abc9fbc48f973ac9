package io.msgx.pipeline.record;

/** The outcome of binding a business identity ({@code SNDR|TYPE|STYP|SEQN}) to a message. */
public sealed interface IdentityBinding {

    /** The identity was free and is now this message's (or already was: a retry keeps its binding). */
    record Bound() implements IdentityBinding {
    }

    /** Another message holds this identity: this one is a business duplicate of it. */
    record HeldBy(long msgId) implements IdentityBinding {
    }
}
