package io.msgx.pipeline.delivery;

import io.msgx.pipeline.record.OutboxEntry;

import java.time.Instant;
import java.util.List;

/**
 * A claimed round: its notifications and projections in claim order, the highest EVENT_ID of each, and whether
 * it retries the head of a paused FLID. Such a round ends the run: once that head is confirmed the FLID is no
 * longer held back, and its later notifications below the cursor (left out while it was paused) must go before
 * those above it, which only a claim from the start gives.
 */
record ClaimedRound(List<OutboxEntry> claimed, int notifications, long lastNotification, long lastProjection,
                    boolean retriedHead, Instant claimedAt, Instant sendingAt) {
}
