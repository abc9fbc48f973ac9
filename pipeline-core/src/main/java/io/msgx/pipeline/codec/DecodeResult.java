package io.msgx.pipeline.codec;

import java.util.List;
import java.util.Objects;

/** What decoding one message came to. Every reason names the element and why. */
public sealed interface DecodeResult {

    /**
     * What a caller does with each decoding result, one method per kind (D-149): a new kind adds a method here, and
     * every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R decoded(Decoded decoded);

        R malformed(Malformed malformed);

        R codecError(CodecError codecError);
    }

    /** The answer of the case for this result's kind. */
    <R> R match(Cases<R> cases);

    /**
     * A well-formed message of a known or unsupported kind.
     *
     * @param unmapped the paths of what the message carried and the model does not know (sis-format §3, "nothing is
     *                 lost silently"), each once, in document order: {@code FLTR/XTRA} for an element,
     *                 {@code FLOP/GTDT/@XTRA} for an attribute, relative to the body; empty when everything was read
     * @param notTimes the paths of time fields whose value is no time ({@code FLOP/EOBT}): kept as sent, and reported
     *                 (sis-format v3 §10), each once, in document order
     */
    record Decoded(DecodedMessage message, List<String> unmapped, List<String> notTimes) implements DecodeResult {
        public Decoded {
            Objects.requireNonNull(message, "message");
            unmapped = List.copyOf(unmapped);
            notTimes = List.copyOf(notTimes);
        }

        public Decoded(DecodedMessage message, List<String> unmapped) {
            this(message, unmapped, List.of());
        }

        /** A message of which every element and attribute was read. */
        public Decoded(DecodedMessage message) {
            this(message, List.of());
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.decoded(this);
        }
    }

    /** The message breaks the contract (sis-format.md) or a codec limit; retrying cannot help. */
    record Malformed(String reason) implements DecodeResult {
        public Malformed {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.malformed(this);
        }
    }

    /**
     * A defect on our side: an unexpected exception while reading a document that parsed. The reason names
     * the exception class and message; the stack trace is logged.
     */
    record CodecError(String reason) implements DecodeResult {
        public CodecError {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.codecError(this);
        }
    }
}
