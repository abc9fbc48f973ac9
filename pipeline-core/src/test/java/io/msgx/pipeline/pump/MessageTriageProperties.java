package io.msgx.pipeline.pump;

import io.msgx.domain.message.FlightDeletion;
import io.msgx.domain.message.FlightOperation;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.MsgKind;
import io.msgx.pipeline.codec.ReferenceAction;
import io.msgx.pipeline.codec.ReferenceAnswer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The triage every message goes through, alone or in a group (issue 25, point 5): for any message kind, any ignore
 * rules and any identity holder, a duplicate is a duplicate whatever it is, an ignore rule wins over the kind, every
 * kind the contract names goes to its processor (never {@code UNSUPPORTED}), and only what a group can finish joins
 * one.
 */
class MessageTriageProperties {

    private static final List<String> RULES = List.of("LDM-*", "FLOP-GTDT", "FLOP-*", "AIRL-*", "ARPT-DNLD", "SCHS-*",
            "ZZZZ-*", "FLOP-FDEL", "GLST-*", "GLST-RESP", "REGL-*");

    @Provide
    Arbitrary<DecodedMessage> messages() {
        var seqn = Arbitraries.longs().between(1, 999_999).map(String::valueOf);
        var flops = Arbitraries.of(FlopSubtype.class).flatMap(subtype -> seqn.map(s -> DecodedMessage.ofFlight(
                meta("FLOP", subtype.name(), s), new FlightOperation(subtype, "F" + s, FlightPatch.empty()))));
        var deletions = seqn.map(s -> DecodedMessage.ofFlight(meta("FLOP", "FDEL", s), new FlightDeletion("F" + s)));
        var references = Arbitraries.of(MsgKind.SIS_REFERENCE_TYPES).flatMap(type ->
                Arbitraries.of(ReferenceAction.class).flatMap(action -> seqn.map(s -> DecodedMessage.ofReference(
                        meta(type, action.name(), s), new ReferenceAnswer(type, action, null, List.of())))));
        var seasonal = Arbitraries.of("DNLD", "RESP").flatMap(styp -> seqn.map(s -> new DecodedMessage(
                meta("SCHS", styp, s), new MsgKind.Seasonal(styp), Optional.empty(), Optional.empty())));
        var unsupported = Arbitraries.of("LDM", "ZZZZ", "QQQ").flatMap(type -> Arbitraries.of("MVT", "DNLD", "X")
                .flatMap(styp -> seqn.map(s -> DecodedMessage.unsupported(meta(type, styp, s),
                        new MsgKind.Unsupported(type, styp)))));
        return Arbitraries.oneOf(flops, deletions, references, seasonal, unsupported);
    }

    @Provide
    Arbitrary<IgnoreRules> rules() {
        return Arbitraries.subsetOf(RULES).map(subset -> IgnoreRules.of(List.copyOf(subset)));
    }

    @Provide
    Arbitrary<OptionalLong> holders() {
        return Arbitraries.longs().between(1, 1_000).map(OptionalLong::of).injectNull(0.5)
                .map(holder -> holder == null ? OptionalLong.empty() : holder);
    }

    @Property
    void aMessageWhoseIdentityAnotherHoldsIsItsDuplicateWhateverItIs(@ForAll("messages") DecodedMessage message,
                                                                    @ForAll("rules") IgnoreRules rules) {
        var verdict = new MessageTriage(rules).of(new DecodeResult.Decoded(message), OptionalLong.of(42));

        assertThat(verdict).isEqualTo(new MessageTriage.Duplicate(42));
    }

    @Property
    void aTextThatCannotBeReadEndsByItsDecodingWhateverElse(@ForAll("rules") IgnoreRules rules,
                                                           @ForAll("holders") OptionalLong holder) {
        var triage = new MessageTriage(rules);

        assertThat(triage.of(new DecodeResult.Malformed("META/SEQN: missing"), holder))
                .isEqualTo(new MessageTriage.Malformed("META/SEQN: missing"));
        assertThat(triage.of(new DecodeResult.CodecError("NullPointerException"), holder))
                .isEqualTo(new MessageTriage.CodecFailure("NullPointerException"));
    }

    @Property
    void anIgnoreRuleWinsOverTheKindAndNamesItself(@ForAll("messages") DecodedMessage message,
                                                   @ForAll("rules") IgnoreRules rules) {
        var answer = message.referenceAnswer().filter(a -> a.action() == ReferenceAction.RESP).isPresent();
        var rule = answer ? rules.matchNamingSubtype(message.meta().type(), message.meta().subtype())
                : rules.match(message.meta().type(), message.meta().subtype());
        var verdict = new MessageTriage(rules).of(message, OptionalLong.empty());

        if (rule.isPresent()) {
            assertThat(verdict).isEqualTo(new MessageTriage.Skip("ignored:" + rule.get()));
        } else {
            assertThat(verdict).isNotInstanceOf(MessageTriage.Duplicate.class);
        }
    }

    /**
     * D-115: the answer to our reference request ({@code RESP} of a configured reference type) is ignored only by a rule
     * naming its {@code RESP}; a wildcard rule ({@code REGN-*}, the baseline's) ignores the type's broadcasts only.
     */
    @Property
    void aWildcardRuleIgnoresAReferenceTypesBroadcastsButNotTheAnswerToOurRequest(
            @ForAll("referenceMessages") DecodedMessage message) {
        var type = message.meta().type();
        var wildcard = new MessageTriage(IgnoreRules.of(List.of("LDM-*", type + "-*")));
        var naming = new MessageTriage(IgnoreRules.of(List.of(type + "-*", type + "-RESP")));

        if (message.referenceAnswer().orElseThrow().action() == ReferenceAction.RESP) {
            assertThat(wildcard.of(message, OptionalLong.empty())).isInstanceOf(MessageTriage.ApplyReference.class);
            assertThat(naming.of(message, OptionalLong.empty()))
                    .isEqualTo(new MessageTriage.Skip("ignored:" + type + "-RESP"));
        } else {
            assertThat(wildcard.of(message, OptionalLong.empty())).isEqualTo(new MessageTriage.Skip("ignored:" + type
                    + "-*"));
        }
    }

    @Provide
    Arbitrary<DecodedMessage> referenceMessages() {
        return Arbitraries.of(java.util.stream.Stream.concat(MsgKind.SIS_REFERENCE_TYPES.stream(), java.util.stream.Stream.of("REGN")).toList())
                .flatMap(type -> Arbitraries.of(ReferenceAction.class).map(action -> DecodedMessage.ofReference(
                        meta(type, action.name(), "7"), new ReferenceAnswer(type, action, null, List.of()))));
    }

    @Property
    void everyKindTheContractNamesGoesToItsProcessorNeverUnsupported(@ForAll("messages") DecodedMessage message) {
        var verdict = new MessageTriage(IgnoreRules.of(List.of())).of(message, OptionalLong.empty());

        var kind = message.kind();
        if (kind instanceof MsgKind.Flop || kind instanceof MsgKind.Fdel || kind instanceof MsgKind.Schd) {
            assertThat(verdict).isEqualTo(new MessageTriage.ApplyFlight(message, message.flightMessage().orElseThrow()));
        } else if (kind instanceof MsgKind.Ref) {
            assertThat(verdict).isEqualTo(new MessageTriage.ApplyReference(message.meta(),
                    message.referenceAnswer().orElseThrow()));
        } else if (kind instanceof MsgKind.Seasonal) {
            assertThat(verdict).isInstanceOfSatisfying(MessageTriage.Skip.class, skip ->
                    assertThat(skip.reason()).startsWith(MessageTriage.SEASONAL_SCHEDULE + ": "));
        } else {
            assertThat(kind).isInstanceOf(MsgKind.Unsupported.class);
            assertThat(verdict).isEqualTo(new MessageTriage.Unsupported(message.meta()));
        }
    }

    @Property
    void onlyWhatAGroupCanFinishJoinsOne(@ForAll("messages") DecodedMessage message,
                                         @ForAll("rules") IgnoreRules rules) {
        var verdict = new MessageTriage(rules).of(message, OptionalLong.empty());

        assertThat(MessageTriage.groupable(verdict)).isEqualTo(verdict instanceof MessageTriage.ApplyFlight
                || verdict instanceof MessageTriage.Skip);
        assertThat(MessageTriage.groupable(verdict)).as("a reference or an unsupported kind goes alone")
                .isEqualTo(!(verdict instanceof MessageTriage.ApplyReference)
                        && !(verdict instanceof MessageTriage.Unsupported));
    }

    @Property
    void aMalformedMessageJoinsAGroupAndACodecFailureGoesAlone(@ForAll("rules") IgnoreRules rules) {
        var triage = new MessageTriage(rules);

        assertThat(MessageTriage.groupable(triage.of(new DecodeResult.Malformed("not XML"), OptionalLong.empty())))
                .as("it ends DEAD(MALFORMED) unread, in the group's transaction").isTrue();
        assertThat(MessageTriage.groupable(triage.of(new DecodeResult.CodecError("a defect"), OptionalLong.empty())))
                .as("it is retried with its backoff, alone").isFalse();
    }

    private static MessageMeta meta(String type, String subtype, String seqn) {
        return new MessageMeta("AODB", null, type, subtype, seqn, LocalDateTime.of(2026, 12, 2, 6, 0), null);
    }
}
