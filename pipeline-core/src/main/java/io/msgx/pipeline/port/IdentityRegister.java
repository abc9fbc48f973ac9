package io.msgx.pipeline.port;

import io.msgx.pipeline.store.IdentityBinding;
import io.msgx.pipeline.store.ProcRecord;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The business identities ({@code PROC_STATE.IDENTITY_KEY}) that keep one message from being processed twice: binding a
 * message to its identity, and finding the message that holds one.
 */
public interface IdentityRegister {

    /**
     * The record of the message holding business identity {@code identityKey} ({@code SNDR|TYPE|STYP|SEQN}, with
     * {@code |yyyyMMdd} when the day boundary is configured), for operators' look-ups.
     */
    Optional<ProcRecord> findByIdentity(String identityKey);

    /**
     * The identity key most recently bound (the highest message ID that has one, archived shadows included); empty
     * when the store holds none. Start-up reads its shape to refuse a silent change of the identity algorithm (D-86).
     */
    Optional<String> latestIdentityKey();

    /**
     * Bind {@code identityKey} to the message, one idempotent statement: binds when the message has none
     * (a message keeps the identity it was given on an earlier attempt), reports the holder when another
     * message holds it.
     */
    IdentityBinding bindIdentity(long msgId, String identityKey, Instant now);

    /**
     * {@link #bindIdentity} for several messages, in the order given, so a later claim of an identity is held by
     * the earlier one; the result by message ID. Outside any business transaction, like the single binding. The
     * default binds one by one; a store overrides it with a few statements in one short transaction.
     */
    default Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        var bindings = new LinkedHashMap<Long, IdentityBinding>();
        claims.forEach(c -> bindings.put(c.msgId(), bindIdentity(c.msgId(), c.identityKey(), now)));
        return bindings;
    }

    /** A message's claim to a business identity. */
    record IdentityClaim(long msgId, String identityKey) {
    }
}
