package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
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
import io.msgx.pipeline.record.FlightStamp;

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
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@link FlightStore} and {@link FlightQueries} on {@code FLIGHT_SCHD} and its detail tables ({@link FlightTables}),
 * for both JDBC stores: inside one transaction, or each statement auto-committed ({@code flightQueries()}).
 *
 * <p>The statements are standard SQL; the dialect says what the databases do apart. A column named by a protocol code
 * is written by {@link SqlDialect#column}. Flights are matched against their keys by {@link SqlDialect#oneOf}: on
 * PostgreSQL all keys in one array ({@code = ANY(?)} for the main rows, {@code IN (SELECT unnest(?))} for the detail
 * rows, which stays linear when statistics lag), on Oracle IN lists of at most 1000. Many rows are written by
 * {@link SqlDialect#insertAll} and {@link SqlDialect#upsertAll}: on PostgreSQL one statement per table whatever the
 * number of rows, every column one array turned back into rows by {@code unnest} (a JDBC batch costs its server an
 * execution per row), on Oracle a JDBC batch of single-row {@code INSERT}s or {@code MERGE}s.
 *
 * <p>Round trips, for up to 1000 flights on Oracle and any number on PostgreSQL: a read costs one query for the main
 * rows and one per detail table (none when no flight exists); the stamps one query; a write one statement for the main
 * rows and at most two per detail table (delete, insert). An update of a flight sets every column but its key and
 * {@code CREATED_AT}, which keeps the time of its first write.
 *
 * <p>An empty field or item value is no value in the domain, never written, so Oracle's '' as NULL changes nothing.
 */
public final class JdbcFlightStore implements FlightStore, FlightQueries {

    private static final String STAMP_QUERY = "SELECT FLID, STATE_VERSION, LAST_MSG_ID FROM FLIGHT_SCHD WHERE ";
    /** The main row's columns an update leaves as the flight's first write set them, beside its key. */
    private static final Set<String> KEPT_ON_UPDATE = Set.of("CREATED_AT");

    private final StoreJdbc sql;
    private final SqlDialect dialect;
    /** Every column of {@code FLIGHT_SCHD}, the key first, as {@link #mainRowOf} gives their values. */
    private final List<StoreJdbc.Column> mainColumns;
    private final String mainQuery;

    public JdbcFlightStore(StoreJdbc sql) {
        this.sql = sql;
        this.dialect = sql.dialect();
        var columns = new ArrayList<>(List.of(new StoreJdbc.Column("FLID", String.class),
                new StoreJdbc.Column("STATE", String.class), new StoreJdbc.Column("STATE_VERSION", Long.class),
                new StoreJdbc.Column("OPERATION_DAY", LocalDate.class), new StoreJdbc.Column("LAST_MSG_ID", Long.class),
                new StoreJdbc.Column("CREATED_AT", Instant.class), new StoreJdbc.Column("UPDATED_AT", Instant.class)));
        var fieldColumns = Arrays.stream(FlightField.values()).map(field -> dialect.column(field.code())).toList();
        fieldColumns.forEach(name -> columns.add(new StoreJdbc.Column(name, String.class)));
        this.mainColumns = List.copyOf(columns);
        this.mainQuery = "SELECT FLID, STATE, STATE_VERSION, OPERATION_DAY, LAST_MSG_ID, "
                + String.join(", ", fieldColumns) + " FROM FLIGHT_SCHD WHERE ";
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

    /**
     * The stamp columns of the main rows only, in one query: a {@code UNION ALL} of the look-up by FLID and the
     * look-up by MAID, each of which can use its index, where one {@code OR} of the two made PostgreSQL scan the
     * table (1.35 ms against 0.38 ms for 150 flights of 4,500, pg_stat_statements in the bench). A flight in both
     * halves is stamped once.
     */
    @Override
    public List<FlightStamp> stampsOf(Collection<FlightId> flids, Collection<FlightId> masters) {
        if (flids.isEmpty() && masters.isEmpty()) {
            return List.of();
        }
        var ids = texts(flids);
        var masterIds = texts(masters);
        var halves = Stream.concat(dialect.oneOf("FLID", KeyLookup.BY_INDEX, ids).stream(),
                dialect.oneOf("MAID", KeyLookup.BY_INDEX, masterIds).stream()).toList();
        var query = halves.stream().map(half -> STAMP_QUERY + half.sql()).collect(Collectors.joining(" UNION ALL "));
        var params = halves.stream().flatMap(half -> Arrays.stream(half.params())).toArray();
        return sql.run("reading the versions of " + ids.size() + " flight(s) " + sample(ids)
                + " and of the code-share children of " + masterIds.size(), session -> {
            var stamps = new LinkedHashMap<String, FlightStamp>();
            for (var stamp : session.list(query, row -> new FlightStamp(FlightId.of(row.text("FLID")),
                    row.longValue("STATE_VERSION"), row.longValue("LAST_MSG_ID")), params)) {
                stamps.putIfAbsent(stamp.flid().value(), stamp);
            }
            return List.copyOf(stamps.values());
        });
    }

    /**
     * One statement per chunk of FLIDs: each FLID's newest {@code FLIGHT_HST} version, and beside them the highest
     * version retention has deleted ({@code FLIGHT_HST_FORGOTTEN}), which every FLID is at least (D-103).
     */
    @Override
    public Map<FlightId, Long> formerVersions(Collection<FlightId> absent) {
        if (absent.isEmpty()) {
            return Map.of();
        }
        var ids = texts(absent);
        return sql.run("reading the archived versions of " + ids.size() + " flight(s) " + sample(ids), session -> {
            var archived = new HashMap<String, Long>();
            long forgotten = 0;
            for (var condition : dialect.oneOf("FLID", KeyLookup.BY_INDEX, ids)) {
                for (var row : session.list("SELECT FLID, MAX(STATE_VERSION) AS STATE_VERSION FROM FLIGHT_HST WHERE "
                                + condition.sql() + " GROUP BY FLID UNION ALL SELECT CAST(NULL AS VARCHAR(32)) AS FLID,"
                                + " MAX_STATE_VERSION AS STATE_VERSION FROM FLIGHT_HST_FORGOTTEN",
                        row -> Map.entry(row.textOrEmpty("FLID"), row.longValue("STATE_VERSION")), condition.params())) {
                    if (row.getKey().isEmpty()) {
                        forgotten = Math.max(forgotten, row.getValue());
                    } else {
                        archived.put(row.getKey(), row.getValue());
                    }
                }
            }
            var former = new HashMap<FlightId, Long>();
            for (var id : ids) {
                long version = Math.max(forgotten, archived.getOrDefault(id, 0L));
                if (version > 0) {
                    former.put(FlightId.of(id), version);
                }
            }
            return former;
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
        write(states, null, now);
    }

    /** Each detail table is rewritten only for the flights whose lists in it differ from what is stored. */
    @Override
    public void save(Collection<FlightState> states, Map<FlightId, FlightState> stored, Instant now) {
        write(states, Objects.requireNonNull(stored, "stored"), now);
    }

    /** {@code stored} null: nothing is known of the stored flights, every list of every flight is rewritten. */
    private void write(Collection<FlightState> states, Map<FlightId, FlightState> stored, Instant now) {
        if (states.isEmpty()) {
            return;
        }
        var byFlid = FlightStore.storableByFlid(states);
        var ids = List.copyOf(byFlid.keySet());
        sql.run("writing " + ids.size() + " flight(s) " + sample(ids), session -> {
            dialect.upsertAll(session, "FLIGHT_SCHD", mainColumns, KEPT_ON_UPDATE,
                    byFlid.values().stream().map(state -> mainRowOf(state, now)).toList());
            for (var table : FlightTables.ALL) {
                if (stored == null) {
                    rewrite(session, table, byFlid.values(), ids);
                } else {
                    rewriteChanged(session, table, byFlid.values(), stored);
                }
            }
            return null;
        });
    }

    private Object[] mainRowOf(FlightState state, Instant now) {
        var row = new ArrayList<Object>(Arrays.asList(state.flid().value(), state.status().name(), state.stateVersion(),
                state.operationDay() == null ? null : state.operationDay().date(), state.lastMsgId(), now, now));
        for (var field : FlightField.values()) {
            row.add(state.fields().valueOf(field));
        }
        return row.toArray();
    }

    private void rewriteChanged(StoreJdbc.Session session, FlightTables table, Collection<FlightState> states,
                                Map<FlightId, FlightState> stored) throws SQLException {
        var replaced = new ArrayList<FlightState>();
        var holdingRows = new ArrayList<String>();
        for (var state : states) {
            var before = stored.get(state.flid());
            if (before != null && table.lists().stream()
                    .allMatch(list -> before.lists().get(list).equals(state.lists().get(list)))) {
                continue;
            }
            replaced.add(state);
            if (before != null && table.lists().stream().anyMatch(list -> !before.lists().get(list).isEmpty())) {
                holdingRows.add(state.flid().value());
            }
        }
        rewrite(session, table, replaced, holdingRows);
    }

    /** Delete the rows of the flights {@code holdingRows}, then insert every list item of {@code states}. */
    private void rewrite(StoreJdbc.Session session, FlightTables table, Collection<FlightState> states,
                         List<String> holdingRows) throws SQLException {
        for (var condition : dialect.oneOf("FLID", KeyLookup.BY_JOIN, holdingRows)) {
            session.update("DELETE FROM " + table.table() + " WHERE " + condition.sql(), condition.params());
        }
        var rows = new ArrayList<Object[]>();
        for (var state : states) {
            for (var list : table.lists()) {
                var items = state.lists().get(list);
                for (int i = 0; i < items.size(); i++) {
                    rows.add(table.rowOf(state.flid().value(), list, i + 1, items.get(i)));
                }
            }
        }
        dialect.insertAll(session, table.table(), table.columns(dialect), rows);
    }

    private record MainRow(String flid, FlightStatus status, long stateVersion, LocalDate day, long lastMsgId,
                           Map<FlightField, String> fields) {
    }

    private List<MainRow> mainRows(StoreJdbc.Session session, String keyColumn, List<String> keys) throws SQLException {
        var rows = new ArrayList<MainRow>();
        for (var condition : dialect.oneOf(keyColumn, KeyLookup.BY_INDEX, keys)) {
            rows.addAll(session.list(mainQuery + condition.sql(), row -> {
                var fields = new EnumMap<FlightField, String>(FlightField.class);
                for (var field : FlightField.values()) {
                    fields.put(field, row.text(field.code()));
                }
                return new MainRow(row.text("FLID"), FlightStatus.valueOf(row.text("STATE")),
                        row.longValue("STATE_VERSION"), row.day("OPERATION_DAY"), row.longValue("LAST_MSG_ID"), fields);
            }, condition.params()));
        }
        return rows;
    }

    private List<FlightState> assemble(StoreJdbc.Session session, List<MainRow> mains) throws SQLException {
        if (mains.isEmpty()) {
            return List.of();
        }
        var ids = mains.stream().map(MainRow::flid).toList();
        var listsByFlid = new HashMap<String, EnumMap<FlightList, List<ListItem>>>();
        for (var table : FlightTables.ALL) {
            for (var condition : dialect.oneOf("FLID", KeyLookup.BY_JOIN, ids)) {
                session.list(table.select(dialect, condition.sql()), row -> {
                    listsByFlid.computeIfAbsent(row.text("FLID"), flid -> new EnumMap<>(FlightList.class))
                            .computeIfAbsent(table.listOf(row), list -> new ArrayList<>())
                            .add(table.itemOf(row));
                    return null;
                }, condition.params());
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
