package io.msgx.tools.simulator;

import io.msgx.domain.message.FlightMessage;
import io.msgx.pipeline.codec.ReferenceAnswer;

/** A message before it has its {@code SEQN} and {@code DTTM}: what the AODB side means to send. */
sealed interface MessageDraft {

    /**
     * What a caller does with each kind of draft, one method per kind (D-149): a new kind adds a method here, and
     * every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R flight(Flight flight);

        R reference(Reference reference);

        R otherType(OtherType other);

        R broken(Broken broken);
    }

    /** The answer of the case for this draft's kind. */
    <R> R match(Cases<R> cases);

    /** A flight message ({@code SCHD}, {@code FLOP}, {@code FDEL}), written by the project's codec. */
    record Flight(String type, String subtype, FlightMessage message) implements MessageDraft {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.flight(this);
        }
    }

    /** A reference data message ({@code TYPE} = its reference type, {@code STYP} = its action), written by the codec. */
    record Reference(ReferenceAnswer answer) implements MessageDraft {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.reference(this);
        }
    }

    /** A message of another type (the ignored ones), with its body element as text. */
    record OtherType(String type, String subtype, String body) implements MessageDraft {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.otherType(this);
        }
    }

    /** A message that leaves the AODB side broken. */
    record Broken(MessageDraft intact, Breakage breakage, double where) implements MessageDraft {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.broken(this);
        }
    }

    /** How a broken message is broken. */
    enum Breakage {
        /** Cut off part way ({@code where} is the fraction kept, between a third and two thirds). */
        TRUNCATED,
        /** The body's end tag in the wrong case. */
        MISMATCHED_END_TAG,
        /** A remark with a bare {@code &}. */
        BARE_AMPERSAND,
        /** Well-formed but without its {@code META} envelope. */
        NO_META
    }
}
