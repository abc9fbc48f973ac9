package io.msgx.pipeline.port;

import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.ProcRecord;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

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

    /** One statement: the message holding {@code identityKey}, archived shadows included; empty when none does. */
    OptionalLong holderOf(String identityKey);

    /**
     * One statement: give the message {@code identityKey} if it has no identity yet. {@link BindAttempt#TAKEN} when
     * another message holds the identity (the unique key refused it; inside a transaction only this statement is
     * undone). A step of {@link io.msgx.pipeline.store.IdentityBinder}, which settles the races.
     */
    BindAttempt bindIfUnbound(long msgId, String identityKey, Instant now);

    /** What one {@link #bindIfUnbound} did. */
    enum BindAttempt {
        /** The message had no identity and now holds this one. */
        BOUND,
        /** Nothing changed: the message holds an identity already (from an earlier attempt), or has no record. */
        UNCHANGED,
        /** Nothing changed: another message holds the identity. */
        TAKEN
    }

    /**
     * Bind several messages' identities in the order given, so a later claim of an identity is held by the earlier
     * one; the result by message ID, as {@link io.msgx.pipeline.store.IdentityBinder#bind} would answer each. Outside
     * any business transaction. PostgreSQL binds a group in a few statements of one short transaction; the other stores
     * bind one by one ({@link io.msgx.pipeline.store.IdentityBinder#bindEach}).
     */
    Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now);

    /** A message's claim to a business identity. */
    record IdentityClaim(long msgId, String identityKey) {
    }
}
