package io.msgx.pipeline.mailbox;

import java.time.Instant;
import java.util.Objects;

/** A message we send to the AODB side through {@code COUTMSGS}. */
public record OutboundMessage(String xml, String routingId, Instant insertedAt) {

    public OutboundMessage {
        Objects.requireNonNull(xml, "xml");
        Objects.requireNonNull(routingId, "routingId");
        Objects.requireNonNull(insertedAt, "insertedAt");
    }
}
