package io.msgx.pipeline.codec;

import io.msgx.domain.message.FlightMessage;

import java.util.Objects;
import java.util.Optional;

/**
 * A well-formed SIS message: its envelope, its kind, and the payload that kind carries. Schd, Flop and Fdel
 * carry a {@link FlightMessage}, Ref a {@link ReferenceAnswer}, Seasonal and Unsupported nothing (their bodies are
 * not read).
 * The constructor refuses a payload that does not fit the kind.
 */
public record DecodedMessage(MessageMeta meta, MsgKind kind, Optional<FlightMessage> flightMessage,
                             Optional<ReferenceAnswer> referenceAnswer) {

    public DecodedMessage {
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(flightMessage, "flightMessage");
        Objects.requireNonNull(referenceAnswer, "referenceAnswer");
        boolean carriesFlight = kind instanceof MsgKind.Schd || kind instanceof MsgKind.Flop || kind instanceof MsgKind.Fdel;
        if (carriesFlight != flightMessage.isPresent()
                || flightMessage.isPresent() && !MsgKind.of(flightMessage.get()).equals(kind)) {
            throw new IllegalArgumentException("a " + kind + " message cannot carry " + flightMessage);
        }
        if (kind instanceof MsgKind.Ref ref
                ? referenceAnswer.isEmpty() || !referenceAnswer.get().referenceType().equals(ref.referenceType())
                        || referenceAnswer.get().action() != ref.action()
                : referenceAnswer.isPresent()) {
            throw new IllegalArgumentException("a " + kind + " message cannot carry " + referenceAnswer);
        }
    }

    public static DecodedMessage ofFlight(MessageMeta meta, FlightMessage message) {
        return new DecodedMessage(meta, MsgKind.of(message), Optional.of(message), Optional.empty());
    }

    public static DecodedMessage ofReference(MessageMeta meta, ReferenceAnswer answer) {
        return new DecodedMessage(meta, new MsgKind.Ref(answer.referenceType(), answer.action()), Optional.empty(), Optional.of(answer));
    }

    public static DecodedMessage unsupported(MessageMeta meta, MsgKind.Unsupported kind) {
        return new DecodedMessage(meta, kind, Optional.empty(), Optional.empty());
    }

    /** A seasonal schedule: its body is not read (sis-format §7). */
    public static DecodedMessage seasonal(MessageMeta meta, MsgKind.Seasonal kind) {
        return new DecodedMessage(meta, kind, Optional.empty(), Optional.empty());
    }
}
