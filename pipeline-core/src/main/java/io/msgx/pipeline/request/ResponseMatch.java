package io.msgx.pipeline.request;

import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.Request;

import java.util.Objects;

/** Whether a schedule answer ({@code SCHD/RESP}) belongs to one of our open requests. */
public sealed interface ResponseMatch {

    /**
     * What a caller does with each kind of match, one method per kind (D-149): a new kind adds a method here, and
     * every {@link #match} that does not say what it does with it stops compiling.
     */
    interface Cases<R> {
        R matched(Matched matched);

        R unmatched(Unmatched unmatched);
    }

    /** The answer of the case for this match's kind. */
    <R> R match(Cases<R> cases);

    /** It answers {@code request}; {@code mode} says how sure we are. */
    record Matched(Request request, MatchMode mode) implements ResponseMatch {
        public Matched {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(mode, "mode");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.matched(this);
        }
    }

    /** It answers nothing we asked for, or too late: it is not applied. */
    record Unmatched(String reason) implements ResponseMatch {
        public Unmatched {
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public <R> R match(Cases<R> cases) {
            return cases.unmatched(this);
        }
    }
}
