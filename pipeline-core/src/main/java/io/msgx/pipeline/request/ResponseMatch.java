package io.msgx.pipeline.request;

import io.msgx.pipeline.store.MatchMode;
import io.msgx.pipeline.store.Request;

import java.util.Objects;

/** Whether a schedule answer ({@code SCHD/RESP}) belongs to one of our open requests. */
public sealed interface ResponseMatch {

    /** It answers {@code request}; {@code mode} says how sure we are. */
    record Matched(Request request, MatchMode mode) implements ResponseMatch {
        public Matched {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(mode, "mode");
        }
    }

    /** It answers nothing we asked for, or too late: it is not applied. */
    record Unmatched(String reason) implements ResponseMatch {
        public Unmatched {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
