package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.codec.MessageIdentity;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.store.IdentityBinder;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A message's business identity claimed in the store, the rule that keeps one message from being processed twice:
 * a message alone binds its claim at once, a group's claims are bound in one statement. Each claim also shows the
 * message's {@code SEQN} to the {@link SequenceWatch}.
 */
final class IdentityClaims {

    private final PipelineStore store;
    private final SequenceWatch sequences;
    private final boolean identityWithDay;
    private final Clock clock;

    IdentityClaims(PipelineStore store, SequenceWatch sequences, boolean identityWithDay, Clock clock) {
        this.store = store;
        this.sequences = sequences;
        this.identityWithDay = identityWithDay;
        this.clock = clock;
    }

    /** The claim of this message's identity. */
    IdentityRegister.IdentityClaim claim(long msgId, DecodedMessage message) {
        sequences.observe(msgId, message.meta());
        return new IdentityRegister.IdentityClaim(msgId, MessageIdentity.of(message.meta(), identityWithDay).key());
    }

    /** Binds one message's identity now; the message that holds it, when another one does. */
    OptionalLong bindAlone(long msgId, DecodedMessage message) {
        return heldByAnother(msgId, IdentityBinder.bind(store, msgId, claim(msgId, message).identityKey(),
                clock.instant()));
    }

    /** Binds a group's claims in one statement; each message's binding. */
    Map<Long, IdentityBinding> bindAll(List<IdentityRegister.IdentityClaim> claims) {
        return claims.isEmpty() ? Map.of() : store.identities().bindIdentities(claims, clock.instant());
    }

    /** The message that holds the identity, when it is not {@code msgId} itself. */
    static OptionalLong heldByAnother(long msgId, IdentityBinding binding) {
        return binding instanceof IdentityBinding.HeldBy held && held.msgId() != msgId
                ? OptionalLong.of(held.msgId()) : OptionalLong.empty();
    }
}
