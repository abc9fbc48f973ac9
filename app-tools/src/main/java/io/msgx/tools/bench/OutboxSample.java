package io.msgx.tools.bench;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Real event records, read back from the outbox after a digest: target, key (FLID) and JSON payload of a spread
 * sample of {@code MSG_EVENT} rows. The producer baseline replays them, so it sends records of the pipeline's own
 * shape and size.
 */
record OutboxSample(List<Event> events, double meanPayloadBytes) {

    record Event(boolean schd, String key, String payload) {
    }

    static OutboxSample read(DataSource store, String schema, int size) throws SQLException {
        var table = '"' + schema + "\".msg_event";
        try (var connection = store.getConnection()) {
            long rows;
            try (var statement = connection.createStatement();
                 var count = statement.executeQuery("SELECT COUNT(*) FROM " + table + " WHERE payload IS NOT NULL")) {
                count.next();
                rows = count.getLong(1);
            }
            long every = Math.max(1, rows / Math.max(1, size));
            var events = new ArrayList<Event>();
            long bytes = 0;
            try (var query = connection.prepareStatement("SELECT target, partition_key, payload FROM " + table
                    + " WHERE payload IS NOT NULL AND MOD(event_id, ?) = 0 ORDER BY event_id LIMIT ?")) {
                query.setLong(1, every);
                query.setInt(2, size);
                try (var result = query.executeQuery()) {
                    while (result.next()) {
                        var payload = result.getString(3);
                        events.add(new Event("KAFKA:schd".equals(result.getString(1)), result.getString(2), payload));
                        bytes += payload.length();
                    }
                }
            }
            return new OutboxSample(List.copyOf(events), events.isEmpty() ? 0 : (double) bytes / events.size());
        }
    }
}
