package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.Sql;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.store.ReferenceEntry;
import io.msgx.pipeline.store.ReferenceFieldsJson;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
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
 * {@code CLOB}; an empty value stays {@code ""} inside the JSON, so Oracle's '' as NULL does not touch it). A refresh is one {@code MERGE} per record, sent as one JDBC batch, that does not overwrite a
 * record last written by a later message. Keys are listed in the session's sort order, which is code-point order
 * under {@code NLS_SORT=BINARY} (see {@link OraclePipelineStore}).
 */
final class OracleReferenceData implements ReferenceData {

    private static final String COLUMNS = "RTYPE, RKEY, FIELDS, MSG_ID, UPDATED_AT";

    private final Sql sql;

    OracleReferenceData(Sql sql) {
        this.sql = sql;
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
            try (var batch = session.batch("MERGE INTO REF_MASTER m USING dual ON (m.RTYPE = ? AND m.RKEY = ?)"
                    + " WHEN MATCHED THEN UPDATE SET FIELDS = ?, MSG_ID = ?, UPDATED_AT = ?"
                    + " WHERE m.MSG_ID IS NULL OR m.MSG_ID <= ?"
                    + " WHEN NOT MATCHED THEN INSERT (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?)")) {
                for (var record : latest) {
                    var fields = new Sql.LongText(ReferenceFieldsJson.write(record.document()));
                    batch.add(type, record.key(), fields, msgId, now, msgId, type, record.key(), fields, msgId, now);
                }
                batch.execute();
            }
            return null;
        });
    }

    /** One {@code DELETE ... WHERE RKEY IN (...)} per 1000 keys (Oracle's limit of an IN list). */
    @Override
    public void remove(String type, Collection<String> keys, long msgId) {
        if (keys.isEmpty()) {
            return;
        }
        sql.run("removing " + keys.size() + " " + type + " reference record(s) for message " + msgId, session -> {
            for (var chunk : Sql.chunks(new LinkedHashSet<>(keys))) {
                var params = new ArrayList<Object>(chunk.size() + 2);
                params.add(type);
                params.addAll(chunk);
                params.add(msgId);
                session.update("DELETE FROM REF_MASTER WHERE RTYPE = ? AND RKEY IN (" + Sql.marks(chunk.size())
                        + ") AND (MSG_ID IS NULL OR MSG_ID <= ?)", params.toArray());
            }
            return null;
        });
    }

    @Override
    public Map<String, Long> writers(String type) {
        return sql.run("reading the keys of " + type + " reference records", session -> {
            var writers = new LinkedHashMap<String, Long>();
            for (var row : session.list("SELECT RKEY, MSG_ID FROM REF_MASTER WHERE RTYPE = ?",
                    r -> Map.entry(r.text("RKEY"), r.nullableLong("MSG_ID") == null ? 0L : r.nullableLong("MSG_ID")),
                    type)) {
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
                "SELECT " + COLUMNS + " FROM REF_MASTER WHERE RTYPE = ? AND RKEY = ?", OracleReferenceData::entry,
                type, key));
    }

    @Override
    public List<ReferenceEntry> all(String type, int limit) {
        ReferenceData.requirePositive(limit);
        return sql.run("listing " + type + " reference records", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM REF_MASTER WHERE RTYPE = ? ORDER BY RKEY"),
                OracleReferenceData::entry, type, limit));
    }

    private static ReferenceEntry entry(Sql.Row row) throws SQLException {
        var msgId = row.nullableLong("MSG_ID");
        var type = row.text("RTYPE");
        var key = row.text("RKEY");
        return new ReferenceEntry(type, key, ReferenceFieldsJson.read(type, key, row.text("FIELDS")), msgId == null ? 0 : msgId,
                row.instant("UPDATED_AT"));
    }
}
