package io.msgx.pipeline.request;

import io.msgx.pipeline.record.RequestKind;

import java.util.Objects;

/**
 * @param sender             our {@code SNDR} in requests ({@code msgx.requests.sender}, default {@code RMS})
 * @param scheduleRoutingId  the {@code COUTMSGS.ROUTINGID} of our schedule requests ({@code RQFD};
 *                           {@code msgx.requests.schedule-routing-id}, default {@code msgx.requests.routing-id})
 * @param referenceRoutingId the {@code COUTMSGS.ROUTINGID} of our reference requests ({@code RQRD};
 *                           {@code msgx.requests.reference-routing-id}, default {@code msgx.requests.routing-id})
 * @param seqns              our request {@code SEQN}: its width ({@code msgx.requests.seqn-width}, default 6 digits)
 *                           and cycle
 * @param schemaLocation     the {@code xsi:noNamespaceSchemaLocation} written on {@code MSG}
 *                           ({@code msgx.requests.schema-location}); empty (the default): no {@code xsi} attributes
 */
public record RequestSettings(String sender, String scheduleRoutingId, String referenceRoutingId, SeqnCycle seqns,
                              String schemaLocation) {

    /** The width of {@code COUTMSGS.ROUTINGID} (sis-format §1). */
    public static final int MAX_ROUTING_ID_LENGTH = 32;
    /** The longest {@code xsi:noNamespaceSchemaLocation} accepted. */
    public static final int MAX_SCHEMA_LOCATION_LENGTH = 200;

    public RequestSettings {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(seqns, "seqns");
        if (!sender.matches("[A-Za-z0-9]{1,16}")) {
            throw new IllegalArgumentException("msgx.requests.sender must be 1 to 16 letters or digits, got '" + sender + "'");
        }
        requireRoutingId("msgx.requests.schedule-routing-id", scheduleRoutingId);
        requireRoutingId("msgx.requests.reference-routing-id", referenceRoutingId);
        schemaLocation = schemaLocation == null ? "" : schemaLocation.strip();
        if (schemaLocation.length() > MAX_SCHEMA_LOCATION_LENGTH
                || !schemaLocation.chars().allMatch(c -> c > ' ' && c != '"' && c != '<' && c != '>' && c != '&'
                && c != '\'' && c != 0x7f)) {
            throw new IllegalArgumentException("msgx.requests.schema-location must be empty (no xsi attributes) or a "
                    + "schema location of at most " + MAX_SCHEMA_LOCATION_LENGTH + " characters without spaces, quotes,"
                    + " '<', '>' or '&' (e.g. SIS.xsd), got '" + schemaLocation + "'");
        }
    }

    /** One routing ID for both kinds of request (version 2 of the contract: {@code msgx.requests.routing-id}). */
    public RequestSettings(String sender, String routingId, SeqnCycle seqns) {
        this(sender, routingId, routingId, seqns, "");
    }

    public static RequestSettings defaults() {
        return new RequestSettings("RMS", "AODB", SeqnCycle.defaults());
    }

    /** The {@code COUTMSGS.ROUTINGID} a request of {@code kind} is written with. */
    public String routingId(RequestKind kind) {
        return kind == RequestKind.SCHEDULE ? scheduleRoutingId : referenceRoutingId;
    }

    /** Whether requests carry the {@code xsi} schema attributes on {@code MSG}. */
    public boolean writesSchemaLocation() {
        return !schemaLocation.isEmpty();
    }

    private static void requireRoutingId(String key, String routingId) {
        if (routingId == null || routingId.isBlank() || routingId.length() > MAX_ROUTING_ID_LENGTH) {
            throw new IllegalArgumentException(key + " (default: msgx.requests.routing-id) must be 1 to "
                    + MAX_ROUTING_ID_LENGTH + " characters, got '" + routingId + "'");
        }
    }
}
