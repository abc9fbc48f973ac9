package io.msgx.pipeline.store;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.testing.SettableClock;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The identity rule that keeps a message from being processed twice, for any order of claims (issue 25, point 1;
 * D-99): whoever claims an identity first holds it for good, every later claimant is told who holds it, and a message
 * keeps the identity its first binding gave it, whatever it claims later. Run on the H2 test store, i.e. the Oracle
 * store's statements.
 */
class IdentityBinderProperties {

    /** A message's claim of an identity (messages and identities drawn from small sets, so they collide). */
    record Claim(long msgId, String identityKey) {
    }

    @Provide
    Arbitrary<List<Claim>> claims() {
        var msgIds = Arbitraries.longs().between(1, 12);
        var keys = Arbitraries.integers().between(1, 6).map(n -> "AODB|SCHD|DNLD|" + n);
        return msgIds.flatMap(id -> keys.map(key -> new Claim(id, key))).list().ofMinSize(1).ofMaxSize(40);
    }

    @Property
    void theFirstClaimantHoldsAnIdentityForGoodAndEveryLaterOneIsToldWho(@ForAll("claims") List<Claim> claims) {
        var clock = SettableClock.atExampleDay();
        var store = H2TestStore.fresh();
        claims.forEach(c -> store.queue().insertIfAbsent(c.msgId(), null, clock.instant()));
        var holders = new HashMap<String, Long>();
        var identities = new HashMap<Long, String>();

        for (var claim : claims) {
            var binding = IdentityBinder.bind(store, claim.msgId(), claim.identityKey(), clock.instant());

            Long holder = holders.get(claim.identityKey());
            String own = identities.get(claim.msgId());
            if (holder == null && own == null) {
                holders.put(claim.identityKey(), claim.msgId());
                identities.put(claim.msgId(), claim.identityKey());
                holder = claim.msgId();
            }
            if (holder == null || holder == claim.msgId()) {
                assertThat(binding).as("%s: free, or its own, or it keeps an earlier one", claim)
                        .isEqualTo(new IdentityBinding.Bound());
            } else {
                assertThat(binding).as("%s: held by the first claimant", claim)
                        .isEqualTo(new IdentityBinding.HeldBy(holder));
            }
        }
        assertHeldAsClaimed(store.identities(), store, holders, identities);
    }

    @Property
    void bindingAGroupAnswersAsBindingItsClaimsOneByOne(@ForAll("claims") List<Claim> claims) {
        var clock = SettableClock.atExampleDay();
        var one = H2TestStore.fresh();
        var group = H2TestStore.fresh();
        claims.forEach(c -> {
            one.queue().insertIfAbsent(c.msgId(), null, clock.instant());
            group.queue().insertIfAbsent(c.msgId(), null, clock.instant());
        });
        var expected = new HashMap<Long, IdentityBinding>();
        claims.forEach(c -> expected.put(c.msgId(), IdentityBinder.bind(one, c.msgId(), c.identityKey(),
                clock.instant())));

        var bound = group.identities().bindIdentities(
                claims.stream().map(c -> new IdentityRegister.IdentityClaim(c.msgId(), c.identityKey())).toList(),
                clock.instant());

        assertThat(bound).isEqualTo(expected);
    }

    private static void assertHeldAsClaimed(IdentityRegister register, H2TestStore store,
                                            Map<String, Long> holders, Map<Long, String> identities) {
        holders.forEach((key, holder) -> assertThat(register.holderOf(key)).as(key).hasValue(holder));
        identities.forEach((msgId, key) -> assertThat(store.queue().find(msgId).orElseThrow().identityKey())
                .as("message %d keeps its first identity", msgId).isEqualTo(key));
    }
}
