package io.msgx.adapter.oracle;

import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.store.ReferenceData;
import io.msgx.pipeline.store.ReferenceEntry;
import io.msgx.pipeline.store.ReferenceFieldsJson;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link ReferenceData} on {@code REF_MASTER}: {@code FIELDS} holds the record's fields as a JSON object in the
 * answer's order (a {@code CLOB}; an empty field value stays {@code ""} inside the JSON, so Oracle's '' as NULL
 * does not touch it). A refresh is one {@code MERGE} per record, sent as one JDBC batch, that does not overwrite a
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
                    var fields = new Sql.Clob(ReferenceFieldsJson.write(record.fields()));
                    batch.add(type, record.key(), fields, msgId, now, msgId, type, record.key(), fields, msgId, now);
                }
                batch.execute();
            }
            return null;
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
        return sql.run("listing " + type + " reference records", session -> session.list(Sql.firstRows(
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
