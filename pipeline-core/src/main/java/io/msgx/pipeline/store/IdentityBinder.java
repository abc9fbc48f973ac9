package io.msgx.pipeline.store;

import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.IdentityRegister.IdentityClaim;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.StorePorts;
import io.msgx.pipeline.record.IdentityBinding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a message to its business identity, the rule that keeps one message from being processed twice, over the
 * store's single statements ({@link IdentityRegister}): who holds the identity; if nobody, take it; if another message
 * took it between the two, ask again. A message keeps the identity an earlier attempt gave it. Each statement is
 * idempotent, so the binding works in auto-commit and inside a transaction alike; one algorithm for every store.
 */
public final class IdentityBinder {

    /** How often the identity may change holder under our feet before the message is left open to be retried. */
    static final int RACES_TOLERATED = 3;

    private static final Logger LOG = LoggerFactory.getLogger(IdentityBinder.class);

    private IdentityBinder() {
    }

    /** {@link #bind(IdentityRegister, MessageQueue, long, String, Instant)} on the ports of a store or a transaction. */
    public static IdentityBinding bind(StorePorts ports, long msgId, String identityKey, Instant now) {
        return bind(ports.identities(), ports.queue(), msgId, identityKey, now);
    }

    /**
     * Bind {@code identityKey} to message {@code msgId}: {@link IdentityBinding.Bound} when the message holds it now
     * (or held it already, or keeps another from an earlier attempt), {@link IdentityBinding.HeldBy} when another
     * message holds it.
     *
     * @throws IllegalStateException when the message has no record (enqueue it first), or the identity kept changing
     *                               holder (leave the message open and retry it)
     */
    public static IdentityBinding bind(IdentityRegister identities, MessageQueue queue, long msgId, String identityKey,
                                       Instant now) {
        for (int race = 0; race < RACES_TOLERATED; race++) {
            var holder = identities.holderOf(identityKey);
            if (holder.isPresent()) {
                return holder.getAsLong() == msgId
                        ? new IdentityBinding.Bound()
                        : new IdentityBinding.HeldBy(holder.getAsLong());
            }
            switch (identities.bindIfUnbound(msgId, identityKey, now)) {
                case BOUND -> {
                    return new IdentityBinding.Bound();
                }
                case TAKEN -> {
                    continue; // another message bound the identity after our read: ask again who holds it
                }
                case UNCHANGED -> {
                    var kept = queue.find(msgId).orElseThrow(() -> new IllegalStateException("message " + msgId
                            + " has no PROC_STATE row: enqueue it (insertIfAbsent) before binding its identity "
                            + identityKey)).identityKey();
                    keptFromAnEarlierAttempt(msgId, kept, identityKey);
                    return new IdentityBinding.Bound();
                }
            }
        }
        throw new IllegalStateException("identity " + identityKey + " kept changing holder while message " + msgId
                + " tried to bind it; leave the message open and retry it");
    }

    /**
     * The message keeps {@code kept}, the identity an earlier attempt gave it; when this attempt {@code derived} another,
     * the codec changed meanwhile, and operators are told. A store binding a group in a few statements of its own calls
     * this for the claimants it finds bound.
     */
    public static void keptFromAnEarlierAttempt(long msgId, String kept, String derived) {
        if (!derived.equals(kept)) {
            LOG.warn("message {} keeps identity {} from an earlier attempt; this attempt derived {} "
                    + "(did the codec change?)", msgId, kept, derived);
        }
    }

    /** Bind the claims one by one, in the order given; the result by message ID. */
    public static Map<Long, IdentityBinding> bindEach(IdentityRegister identities, MessageQueue queue,
                                                      List<IdentityClaim> claims, Instant now) {
        var bindings = new LinkedHashMap<Long, IdentityBinding>();
        claims.forEach(c -> bindings.put(c.msgId(), bind(identities, queue, c.msgId(), c.identityKey(), now)));
        return bindings;
    }
}
