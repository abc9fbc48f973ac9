package io.msgx.tools.crash;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * What one store schema holds after a run, in a form two runs can be compared by: every flight table row without
 * its wall-clock columns, every processing record's outcome, each flight's notifications in outbox order and its
 * current projection. Times of the run ({@code CREATED_AT}, {@code UPDATED_AT}, the projection's
 * {@code updatedAt}) are left out: they differ between any two runs; everything else must not.
 *
 * @param flightRows    per flight table (FLIGHT_SCHD and every list table), its rows as text, sorted
 * @param versions      FLIGHT_SCHD: FLID → STATE_VERSION
 * @param states        FLIGHT_SCHD: FLID → STATE (ACTIVE / DELETED)
 * @param outcomes      PROC_STATE: MSG_ID → state, error class, last error, identity key
 * @param notifications per FLID, its {@code KAFKA:msg} outbox rows in EVENT_ID order (the processing order the store
 *                      recorded): the message ID, the version and the payload
 * @param commitOrder   the message IDs of all {@code KAFKA:msg} outbox rows in EVENT_ID order: EVENT_ID comes from one
 *                      sequence drawn as changes commit, so this is the order messages were applied in, all flights
 *                      together
 * @param projections   per FLID, its {@code KAFKA:schd} outbox row's payload without {@code updatedAt}; null for a
 *                      tombstone
 */
public record StoreContents(Map<String, List<String>> flightRows, Map<String, Long> versions,
                            Map<String, String> states, Map<Long, String> outcomes,
                            Map<String, List<Notification>> notifications, List<Long> commitOrder,
                            Map<String, String> projections) {

    /** One {@code KAFKA:msg} outbox row. */
    public record Notification(long msgId, long stateVersion, String payload) {
    }

    private static final Set<String> RUN_TIMES = Set.of("created_at", "updated_at", "archived_at");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Read the store behind {@code dataSource} (its connections' search path is the schema). */
    public static StoreContents read(DataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection()) {
            var rows = new TreeMap<String, List<String>>();
            for (var table : flightTables(connection)) {
                rows.put(table, rowsOf(connection, table));
            }
            var versions = new TreeMap<String, Long>();
            var states = new TreeMap<String, String>();
            query(connection, "select flid, state_version, state from flight_schd", r -> {
                versions.put(r.getString(1), r.getLong(2));
                states.put(r.getString(1), r.getString(3));
            });
            var outcomes = new TreeMap<Long, String>();
            query(connection, "select msg_id, state, error_class, last_error, identity_key from proc_state", r ->
                    outcomes.put(r.getLong(1), r.getString(2) + " " + r.getString(3) + " " + r.getString(4) + " "
                            + r.getString(5)));
            var notifications = new TreeMap<String, List<Notification>>();
            var commitOrder = new ArrayList<Long>();
            query(connection, "select partition_key, msg_id, state_version, payload from msg_event "
                    + "where target = 'KAFKA:msg' order by event_id", r -> {
                notifications.computeIfAbsent(r.getString(1), k -> new ArrayList<>())
                        .add(new Notification(r.getLong(2), r.getLong(3), r.getString(4)));
                commitOrder.add(r.getLong(2));
            });
            var projections = new TreeMap<String, String>();
            query(connection, "select partition_key, payload from msg_event where target = 'KAFKA:schd'", r ->
                    projections.put(r.getString(1), withoutRunTime(r.getString(2))));
            return new StoreContents(rows, versions, states, outcomes, notifications, commitOrder, projections);
        }
    }

    /** A {@code schd} or {@code msg} value without its {@code updatedAt} (the one run time it carries); null stays null. */
    public static String withoutRunTime(String projection) {
        if (projection == null) {
            return null;
        }
        try {
            var node = (ObjectNode) JSON.readTree(projection);
            node.remove("updatedAt");
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not a projection: " + projection, e);
        }
    }

    /**
     * The flights whose main row or lists differ from {@code reference}'s, each with both versions: empty when the
     * two stores hold the same flights.
     */
    public List<String> flightsDifferingFrom(StoreContents reference) {
        var differing = new TreeSet<String>();
        for (var table : union(flightRows.keySet(), reference.flightRows.keySet())) {
            var mine = new TreeSet<>(flightRows.getOrDefault(table, List.of()));
            var theirs = new TreeSet<>(reference.flightRows.getOrDefault(table, List.of()));
            for (var row : union(mine, theirs)) {
                if (mine.contains(row) != theirs.contains(row)) {
                    differing.add(row.substring(0, row.indexOf('|')));
                }
            }
        }
        var lines = new ArrayList<String>();
        for (var flid : differing) {
            lines.add(flid + ": STATE_VERSION " + versions.get(flid) + " here, " + reference.versions.get(flid)
                    + " in the reference run");
        }
        return lines;
    }

    private static <T extends Comparable<T>> Set<T> union(Set<T> a, Set<T> b) {
        var all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> flightTables(Connection connection) throws SQLException {
        var tables = new ArrayList<String>();
        query(connection, "select table_name from information_schema.tables where table_schema = current_schema() "
                + "and table_name like 'flight\\_%' order by table_name", r -> tables.add(r.getString(1)));
        return tables;
    }

    /**
     * Every row of {@code table} as {@code flid|col=value|...} (a table of no flight, such as
     * {@code flight_hst_forgotten}, as {@code -|col=value|...}), wall-clock columns left out, sorted.
     */
    private static List<String> rowsOf(Connection connection, String table) throws SQLException {
        var rows = new ArrayList<String>();
        try (var statement = connection.createStatement();
             var result = statement.executeQuery("select * from " + table)) {
            var meta = result.getMetaData();
            boolean perFlight = false;
            for (int column = 1; column <= meta.getColumnCount(); column++) {
                perFlight |= meta.getColumnName(column).equalsIgnoreCase("flid");
            }
            while (result.next()) {
                var row = new StringBuilder(perFlight ? String.valueOf(result.getString("flid")) : "-");
                for (int column = 1; column <= meta.getColumnCount(); column++) {
                    var name = meta.getColumnName(column);
                    if (!RUN_TIMES.contains(name)) {
                        row.append('|').append(name).append('=').append(result.getString(column));
                    }
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        return rows;
    }

    @FunctionalInterface
    private interface RowReader {
        void read(java.sql.ResultSet row) throws SQLException;
    }

    private static void query(Connection connection, String sql, RowReader reader) throws SQLException {
        try (var statement = connection.createStatement(); var rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                reader.read(rows);
            }
        }
    }

    /** Per state (SUCCEEDED, SKIPPED, DEAD, ...), how many processing records end in it. */
    public Map<String, Long> countPerState() {
        var counts = new TreeMap<String, Long>();
        outcomes.values().forEach(o -> counts.merge(o.substring(0, o.indexOf(' ')), 1L, Long::sum));
        return new LinkedHashMap<>(counts);
    }
}
