package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.RowStatement;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.pipeline.store.ReferenceFieldsJson;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link ReferenceData} on {@code REF_MASTER}: {@code FIELDS} holds the record's document (D-58) as JSON text (a
 * {@code CLOB} on Oracle, a {@code TEXT} on PostgreSQL, so the member order survives; an empty value stays {@code ""}
 * inside the JSON, so Oracle's '' as NULL does not touch it). A refresh is one upsert per record, sent as one JDBC
 * batch, that does not overwrite a record last written by a later message ({@link SqlDialect#upsertUnlessLater}).
 * Keys are listed in code-point order ({@link SqlDialect#inCodePointOrder}).
 */
public final class JdbcReferenceData implements ReferenceData {

    private static final String COLUMNS = "RTYPE, RKEY, FIELDS, MSG_ID, UPDATED_AT";

    private final StoreJdbc sql;
    private final RowStatement upsert;

    public JdbcReferenceData(StoreJdbc sql) {
        this.sql = sql;
        this.upsert = sql.dialect().upsertUnlessLater("REF_MASTER", List.of("RTYPE", "RKEY"),
                List.of("FIELDS", "MSG_ID", "UPDATED_AT"), "MSG_ID");
    }

    @Override
    public void refresh(String type, List<ReferenceRecord> records, long msgId, Instant now) {
        Objects.requireNonNull(now, "now");
        ReferenceData.requireStorable(type, records);
        var latest = ReferenceData.lastByKey(records).values();
        if (latest.isEmpty()) {
            return;
        }
        sql.run("refreshing " + latest.size() + " " + type + " reference record(s) of message " + msgId, session -> {
            try (var batch = session.batch(upsert.sql())) {
                for (var record : latest) {
                    var fields = new StoreJdbc.LongText(ReferenceFieldsJson.write(record.document()));
                    batch.add(upsert.params(type, record.key(), fields, msgId, now));
                }
                return batch.execute();
            }
        });
    }

    /** One {@code DELETE} per {@link StoreJdbc#oneOf} condition of keys (1,000 keys each on Oracle, all on PostgreSQL). */
    @Override
    public void remove(String type, Collection<String> keys, long msgId) {
        if (keys.isEmpty()) {
            return;
        }
        sql.run("removing " + keys.size() + " " + type + " reference record(s) for message " + msgId, session -> {
            for (var in : sql.oneOf("RKEY", SqlDialect.KeyLookup.BY_JOIN, new LinkedHashSet<>(keys))) {
                session.update("DELETE FROM REF_MASTER WHERE RTYPE = ? AND " + in.sql()
                        + " AND (MSG_ID IS NULL OR MSG_ID <= ?)", type, in, msgId);
            }
            return null;
        });
    }

    @Override
    public Map<String, Long> writers(String type) {
        return sql.run("reading the keys of " + type + " reference records", session -> {
            var writers = new LinkedHashMap<String, Long>();
            for (var row : session.list("SELECT RKEY, MSG_ID FROM REF_MASTER WHERE RTYPE = ?",
                    r -> Map.entry(r.text("RKEY"), r.longValue("MSG_ID")), type)) {
                writers.put(row.getKey(), row.getValue());
            }
            return writers;
        });
    }

    @Override
    public Map<String, Long> countsByType() {
        return sql.run("counting reference records by type", session -> {
            var counts = new TreeMap<String, Long>();
            for (var row : session.list("SELECT RTYPE, COUNT(*) AS N FROM REF_MASTER GROUP BY RTYPE",
                    r -> Map.entry(r.text("RTYPE"), r.longValue("N")))) {
                counts.put(row.getKey(), row.getValue());
            }
            return counts;
        });
    }

    @Override
    public Optional<ReferenceEntry> find(String type, String key) {
        return sql.run("reading reference record " + type + "/" + key, session -> session.one(
                "SELECT " + COLUMNS + " FROM REF_MASTER WHERE RTYPE = ? AND RKEY = ?", JdbcReferenceData::entry,
                type, key));
    }

    @Override
    public List<ReferenceEntry> all(String type, int limit) {
        ReferenceData.requirePositive(limit);
        return sql.run("listing " + type + " reference records", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM REF_MASTER WHERE RTYPE = ? ORDER BY "
                                + sql.dialect().inCodePointOrder("RKEY")),
                JdbcReferenceData::entry, type, limit));
    }

    /** A record whose writer is unknown ({@code MSG_ID} NULL) reads as written by message 0. */
    private static ReferenceEntry entry(StoreJdbc.Row row) throws SQLException {
        var type = row.text("RTYPE");
        var key = row.text("RKEY");
        return new ReferenceEntry(type, key, ReferenceFieldsJson.read(type, key, row.text("FIELDS")),
                row.longValue("MSG_ID"), row.instant("UPDATED_AT"));
    }
}
