package io.msgx.pipeline.request;

import java.util.Objects;

/**
 * @param sender    our {@code SNDR} in requests ({@code msgx.requests.sender}, default {@code RMS})
 * @param routingId the {@code COUTMSGS.ROUTINGID} of our requests ({@code msgx.requests.routing-id}, default
 *                  {@code AODB})
 * @param seqns     our request {@code SEQN}: its width ({@code msgx.requests.seqn-width}, default 6 digits) and cycle
 */
public record RequestSettings(String sender, String routingId, SeqnCycle seqns) {

    public RequestSettings {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(routingId, "routingId");
        Objects.requireNonNull(seqns, "seqns");
        if (!sender.matches("[A-Za-z0-9]{1,16}")) {
            throw new IllegalArgumentException("msgx.requests.sender must be 1 to 16 letters or digits, got '" + sender + "'");
        }
        if (routingId.isBlank() || routingId.length() > 32) {
            throw new IllegalArgumentException("msgx.requests.routing-id must be 1 to 32 characters, got '" + routingId + "'");
        }
    }

    public static RequestSettings defaults() {
        return new RequestSettings("RMS", "AODB", SeqnCycle.defaults());
    }
}
