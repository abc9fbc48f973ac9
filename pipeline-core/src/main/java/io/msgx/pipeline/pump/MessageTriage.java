package io.msgx.pipeline.pump;

import io.msgx.domain.message.FlightMessage;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.MsgKind;
import io.msgx.pipeline.codec.ReferenceAction;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.mailbox.AcceptedStatuses;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a message goes once it is read: the one triage of the single and the grouped path (issue 25, point 5). Pure:
 * the {@link MessageProcessor} reads, binds the identity and records; this decides, in this order:
 * <ol>
 *   <li>a mailbox row whose status is not accepted ({@link #ofStatus}) is not a message: it ends
 *       {@code SKIPPED(status:<value>)} before its text is decoded or its identity bound (sis-format §10, D-110), so
 *       whatever its text holds it never ends {@code DEAD(MALFORMED)} and never holds an identity;</li>
 *   <li>a text that breaks the contract ends {@code DEAD(MALFORMED)}; a defect of the codec is {@code FAILED(CODEC_ERROR)}
 *       and retried;</li>
 *   <li>a message whose identity another message holds is a duplicate of it (Q15; D-84 tells the content);</li>
 *   <li>a message an ignore rule names ends {@code SKIPPED(ignored:<rule>)} (the answer to a reference request of
 *       ours only by a rule naming its {@code RESP}, D-115); a seasonal schedule ends
 *       {@code SKIPPED(seasonal-schedule: ...)} (D-63);</li>
 *   <li>a flight message ({@code SCHD}, {@code FLOP}, {@code FDEL}) goes to the flight processor, a reference message to
 *       the reference processor;</li>
 *   <li>anything else is a kind no processor handles: {@code FAILED(UNSUPPORTED)}, holding the FIFO head.</li>
 * </ol>
 */
public final class MessageTriage {

    /** The reason's prefix of a seasonal schedule's skip. */
    public static final String SEASONAL_SCHEDULE = "seasonal-schedule";

    /** Where a message goes. */
    public sealed interface Verdict {

        /**
         * What a caller does with each verdict, one method per kind (D-149): a new kind adds a method here, and every
         * {@link #match} that does not say what it does with it stops compiling.
         */
        interface Cases<R> {
            R malformed(Malformed malformed);

            R codecFailure(CodecFailure failure);

            R duplicate(Duplicate duplicate);

            R skip(Skip skip);

            R applyFlight(ApplyFlight flight);

            R applyReference(ApplyReference reference);

            R unsupported(Unsupported unsupported);
        }

        /** The answer of the case for this verdict's kind. */
        <R> R match(Cases<R> cases);
    }

    /** The text breaks the contract: {@code DEAD(MALFORMED)} with {@code reason}. */
    public record Malformed(String reason) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.malformed(this);
        }
    }

    /** Our codec failed on a text that parsed: {@code FAILED(CODEC_ERROR)}, retried. */
    public record CodecFailure(String reason) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.codecFailure(this);
        }
    }

    /** Another message ({@code holder}) holds this one's identity: {@code SKIPPED(duplicate-of:<holder>...)}. */
    public record Duplicate(long holder) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.duplicate(this);
        }
    }

    /** Ended unread: {@code SKIPPED(<reason>)}. */
    public record Skip(String reason) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.skip(this);
        }
    }

    /** A flight message for the flight processor. */
    public record ApplyFlight(DecodedMessage message, FlightMessage flight) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.applyFlight(this);
        }
    }

    /** A reference message for the reference processor. */
    public record ApplyReference(MessageMeta meta, ReferenceAnswer answer) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.applyReference(this);
        }
    }

    /** A kind no processor handles: {@code FAILED(UNSUPPORTED)}. */
    public record Unsupported(MessageMeta meta) implements Verdict {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.unsupported(this);
        }
    }

    private final IgnoreRules ignoreRules;
    private final AcceptedStatuses acceptedStatuses;

    /** A triage whose rows are messages when their status is {@code VALID} or {@code NULL} (the default). */
    public MessageTriage(IgnoreRules ignoreRules) {
        this(ignoreRules, AcceptedStatuses.defaults());
    }

    public MessageTriage(IgnoreRules ignoreRules, AcceptedStatuses acceptedStatuses) {
        this.ignoreRules = Objects.requireNonNull(ignoreRules, "ignoreRules");
        this.acceptedStatuses = Objects.requireNonNull(acceptedStatuses, "acceptedStatuses");
    }

    /**
     * The verdict on a mailbox row's status ({@code CMINMSGS_STATUS}, null for {@code NULL}), taken first, before its
     * text is decoded: {@code SKIPPED(status:<value>)} when the status is not accepted; empty when the row is a
     * message, which then goes to {@link #of(DecodeResult, OptionalLong)}.
     */
    public Optional<Skip> ofStatus(String status) {
        return acceptedStatuses.skipReason(status).map(Skip::new);
    }

    /**
     * The verdict on a decoding result; {@code heldBy} is the message that holds its identity, when another does (only
     * a decoded message has an identity).
     */
    public Verdict of(DecodeResult decoded, OptionalLong heldBy) {
        return decoded.match(new DecodeResult.Cases<>() {
            @Override
            public Verdict decoded(DecodeResult.Decoded read) {
                return of(read.message(), heldBy);
            }

            @Override
            public Verdict malformed(DecodeResult.Malformed malformed) {
                return new Malformed(malformed.reason());
            }

            @Override
            public Verdict codecError(DecodeResult.CodecError codecError) {
                return new CodecFailure(codecError.reason());
            }
        });
    }

    /** The verdict on a decoded message; {@code heldBy} as in {@link #of(DecodeResult, OptionalLong)}. */
    public Verdict of(DecodedMessage message, OptionalLong heldBy) {
        if (heldBy.isPresent()) {
            return new Duplicate(heldBy.getAsLong());
        }
        var meta = message.meta();
        var ignoredBy = answersAReferenceRequest(message)
                ? ignoreRules.matchNamingSubtype(meta.type(), meta.subtype())
                : ignoreRules.match(meta.type(), meta.subtype());
        if (ignoredBy.isPresent()) {
            return new Skip("ignored:" + ignoredBy.get());
        }
        var kind = message.kind();
        if (kind instanceof MsgKind.Seasonal) {
            return new Skip(SEASONAL_SCHEDULE + ": " + meta.kind() + " carries the season's planned services and "
                    + "names no flight instance (sis-format §7); it is not flight state");
        }
        if (message.flightMessage().isPresent()) {
            return new ApplyFlight(message, message.flightMessage().get());
        }
        if (message.referenceAnswer().isPresent()) {
            return new ApplyReference(meta, message.referenceAnswer().get());
        }
        return new Unsupported(meta);
    }

    /**
     * A {@code RESP} of a type configured as a reference type ({@code msgx.codec.reference-types}): the answer to a
     * reference request of ours (sis-format §6). A wildcard ignore rule ({@code REGN-*}, the baseline's) stands for
     * the type's broadcasts and does not swallow it; a rule naming {@code RESP} ({@code REGN-RESP}) does (D-115).
     */
    private static boolean answersAReferenceRequest(DecodedMessage message) {
        return message.referenceAnswer().map(answer -> answer.action() == ReferenceAction.RESP).orElse(false);
    }

    /**
     * True when a message with this verdict (taken before its identity is bound) may go in a group: a flight message,
     * or one that ends unread (skipped, or malformed). Everything else goes alone: a reference answer, an unsupported
     * kind, and a codec failure, which is retried.
     */
    public static boolean groupable(Verdict verdict) {
        return verdict.match(GROUPABLE);
    }

    private static final Verdict.Cases<Boolean> GROUPABLE = new Verdict.Cases<>() {
        @Override
        public Boolean malformed(Malformed malformed) {
            return true;
        }

        @Override
        public Boolean codecFailure(CodecFailure failure) {
            return false;
        }

        @Override
        public Boolean duplicate(Duplicate duplicate) {
            return false;
        }

        @Override
        public Boolean skip(Skip skip) {
            return true;
        }

        @Override
        public Boolean applyFlight(ApplyFlight flight) {
            return true;
        }

        @Override
        public Boolean applyReference(ApplyReference reference) {
            return false;
        }

        @Override
        public Boolean unsupported(Unsupported unsupported) {
            return false;
        }
    };
}
