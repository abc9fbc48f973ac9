package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.FlightTables;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.OperationDay;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.store.FlightStamp;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@link FlightStore} on {@code FLIGHT_SCHD} and its detail tables, bound to one transaction. A read costs one query
 * for the main rows and one per detail table (an IN list; Oracle takes 1000 values per list, so every further 1000
 * flights cost as much again); a write costs one JDBC batch of {@code MERGE}s for the main rows and, per detail
 * table, one delete and one batch of inserts.
 *
 * <p>An empty field or item value is no value in the domain, so Oracle's '' as NULL changes nothing here.
 */
final class OracleFlightStore implements FlightStore, FlightQueries {

    private static final String MAIN_COLUMNS = "FLID, STATE, STATE_VERSION, OPERATION_DAY, LAST_MSG_ID, "
            + String.join(", ", FlightTables.FIELD_COLUMNS);

    /** Insert or update one main row: FLID, then the updated values, then the inserted ones. */
    private static final String UPSERT_MAIN = "MERGE INTO FLIGHT_SCHD f USING dual ON (f.FLID = ?)"
            + " WHEN MATCHED THEN UPDATE SET STATE = ?, STATE_VERSION = ?, OPERATION_DAY = ?, LAST_MSG_ID = ?,"
            + " UPDATED_AT = ?, " + FlightTables.FIELD_COLUMNS.stream().map(c -> c + " = ?").collect(Collectors.joining(", "))
            + " WHEN NOT MATCHED THEN INSERT (FLID, STATE, STATE_VERSION, OPERATION_DAY, LAST_MSG_ID, CREATED_AT,"
            + " UPDATED_AT, " + String.join(", ", FlightTables.FIELD_COLUMNS) + ") VALUES ("
            + Sql.marks(7 + FlightTables.FIELD_COLUMNS.size()) + ")";

    private final Sql sql;

    OracleFlightStore(Sql sql) {
        this.sql = sql;
    }

    @Override
    public List<FlightState> find(Collection<FlightId> flids) {
        if (flids.isEmpty()) {
            return List.of();
        }
        var ids = texts(flids);
        return sql.run("reading " + ids.size() + " flight(s) " + sample(ids), session -> assemble(session,
                mainRows(session, "FLID", ids)));
    }

    @Override
    public List<FlightState> findChildrenOf(Collection<FlightId> masters) {
        if (masters.isEmpty()) {
            return List.of();
        }
        var ids = texts(masters);
        return sql.run("reading the code-share children of " + sample(ids), session -> assemble(session,
                mainRows(session, "MAID", ids)));
    }

    /** The stamp columns of the main rows only: one statement per chunk of FLIDs and per chunk of masters. */
    @Override
    public List<FlightStamp> stampsOf(Collection<FlightId> flids, Collection<FlightId> masters) {
        if (flids.isEmpty() && masters.isEmpty()) {
            return List.of();
        }
        var ids = texts(flids);
        var masterIds = texts(masters);
        return sql.run("reading the versions of " + ids.size() + " flight(s) " + sample(ids)
                + " and of the code-share children of " + masterIds.size(), session -> {
            var stamps = new LinkedHashMap<String, FlightStamp>();
            for (var keyed : List.of(Map.entry("FLID", ids), Map.entry("MAID", masterIds))) {
                for (var chunk : Sql.chunks(keyed.getValue())) {
                    for (var stamp : session.list("SELECT FLID, STATE_VERSION, LAST_MSG_ID FROM FLIGHT_SCHD WHERE "
                            + keyed.getKey() + " IN (" + Sql.marks(chunk.size()) + ")", row -> new FlightStamp(
                            FlightId.of(row.text("FLID")), row.longValue("STATE_VERSION"),
                            row.longValue("LAST_MSG_ID")), chunk.toArray())) {
                        stamps.putIfAbsent(stamp.flid().value(), stamp);
                    }
                }
            }
            return List.copyOf(stamps.values());
        });
    }

    @Override
    public List<FlightId> findByFlightNumber(String flightNumber, LocalDate operationDay) {
        return sql.run("looking up flight number " + flightNumber, session -> operationDay == null
                ? session.list(sql.firstRows("SELECT FLID FROM FLIGHT_SCHD WHERE FLNO = ? ORDER BY FLID"),
                        row -> FlightId.of(row.text("FLID")), flightNumber, 50)
                : session.list(sql.firstRows("SELECT FLID FROM FLIGHT_SCHD WHERE FLNO = ? AND OPERATION_DAY = ?"
                                + " ORDER BY FLID"), row -> FlightId.of(row.text("FLID")), flightNumber, operationDay, 50));
    }

    @Override
    public void save(Collection<FlightState> states, Instant now) {
        if (states.isEmpty()) {
            return;
        }
        var byFlid = FlightStore.storableByFlid(states);
        var ids = List.copyOf(byFlid.keySet());
        sql.run("writing " + ids.size() + " flight(s) " + sample(ids), session -> {
            upsertMainRows(session, byFlid.values(), now);
            for (var table : FlightTables.ALL) {
                rewrite(session, table, byFlid.values(), ids);
            }
            return null;
        });
    }

    private static void upsertMainRows(Sql.Session session, Collection<FlightState> states, Instant now)
            throws SQLException {
        try (var batch = session.batch(UPSERT_MAIN)) {
            for (var state : states) {
                var day = state.operationDay() == null ? null : state.operationDay().date();
                var fields = Arrays.stream(FlightField.values()).map(state.fields()::valueOf).toList();
                var row = new ArrayList<Object>();
                row.add(state.flid().value());
                row.addAll(Arrays.asList(state.status().name(), state.stateVersion(), day, state.lastMsgId(), now));
                row.addAll(fields);
                row.addAll(Arrays.asList(state.flid().value(), state.status().name(), state.stateVersion(), day,
                        state.lastMsgId(), now, now));
                row.addAll(fields);
                batch.add(row.toArray());
            }
            batch.execute();
        }
    }

    private static void rewrite(Sql.Session session, FlightTables table, Collection<FlightState> states,
                                List<String> ids) throws SQLException {
        for (var chunk : Sql.chunks(ids)) {
            session.update("DELETE FROM " + table.table() + " WHERE FLID IN (" + Sql.marks(chunk.size()) + ")",
                    chunk.toArray());
        }
        try (var batch = session.batch(table.insert())) {
            for (var state : states) {
                for (var list : table.lists()) {
                    var items = state.lists().get(list);
                    for (int i = 0; i < items.size(); i++) {
                        batch.add(table.rowOf(state.flid().value(), list, i + 1, items.get(i)));
                    }
                }
            }
            batch.execute();
        }
    }

    private record MainRow(String flid, FlightStatus status, long stateVersion, LocalDate day, long lastMsgId,
                           Map<FlightField, String> fields) {
    }

    private static List<MainRow> mainRows(Sql.Session session, String keyColumn, List<String> keys)
            throws SQLException {
        var rows = new ArrayList<MainRow>();
        for (var chunk : Sql.chunks(keys)) {
            rows.addAll(session.list("SELECT " + MAIN_COLUMNS + " FROM FLIGHT_SCHD WHERE " + keyColumn + " IN ("
                    + Sql.marks(chunk.size()) + ")", row -> {
                var fields = new EnumMap<FlightField, String>(FlightField.class);
                for (var field : FlightField.values()) {
                    fields.put(field, row.text(field.code()));
                }
                return new MainRow(row.text("FLID"), FlightStatus.valueOf(row.text("STATE")),
                        row.longValue("STATE_VERSION"), row.day("OPERATION_DAY"), row.longValue("LAST_MSG_ID"), fields);
            }, chunk.toArray()));
        }
        return rows;
    }

    private static List<FlightState> assemble(Sql.Session session, List<MainRow> mains) throws SQLException {
        if (mains.isEmpty()) {
            return List.of();
        }
        var ids = mains.stream().map(MainRow::flid).toList();
        var listsByFlid = new HashMap<String, EnumMap<FlightList, List<ListItem>>>();
        for (var table : FlightTables.ALL) {
            for (var chunk : Sql.chunks(ids)) {
                session.list(table.select(chunk.size()), row -> {
                    listsByFlid.computeIfAbsent(row.text("FLID"), flid -> new EnumMap<>(FlightList.class))
                            .computeIfAbsent(table.listOf(row), list -> new ArrayList<>())
                            .add(table.itemOf(row));
                    return null;
                }, chunk.toArray());
            }
        }
        var states = new ArrayList<FlightState>(mains.size());
        for (var main : mains) {
            var lists = listsByFlid.get(main.flid());
            states.add(new FlightState(FlightId.of(main.flid()), main.status(), main.stateVersion(),
                    main.day() == null ? null : OperationDay.of(main.day()), main.lastMsgId(),
                    FlightFields.of(main.fields()), lists == null ? FlightLists.empty() : FlightLists.of(lists)));
        }
        return states;
    }

    private static List<String> texts(Collection<FlightId> ids) {
        return ids.stream().map(FlightId::value).distinct().toList();
    }

    /** The first few FLIDs, for messages. */
    private static String sample(List<String> ids) {
        return ids.size() <= 5 ? ids.toString() : ids.subList(0, 5) + "...";
    }
}
