package io.msgx.adapter.pg;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.store.ReferenceData;
import io.msgx.pipeline.store.ReferenceEntry;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static io.msgx.adapter.pg.jooq.Tables.REF_MASTER;

/**
 * {@link ReferenceData} on {@code REF_MASTER}: {@code FIELDS} holds the record's fields as a JSON object in the
 * answer's order (a {@code TEXT} column, so the order survives). A refresh is one
 * {@code INSERT ... ON CONFLICT (RTYPE, RKEY) DO UPDATE} per record, sent as one batch, that does not overwrite a
 * record last written by a later message. Keys are listed in code-point order ({@code COLLATE "C"}), whatever
 * the database's collation.
 */
final class PgReferenceData implements ReferenceData {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, String>> FIELDS = new TypeReference<>() {
    };
    private static final Field<String> KEY_ORDER = DSL.field("{0} COLLATE \"C\"", String.class, REF_MASTER.RKEY);

    private final DSLContext dsl;

    PgReferenceData(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public void refresh(String type, List<ReferenceRecord> records, long msgId, Instant now) {
        Objects.requireNonNull(now, "now");
        ReferenceData.requireStorable(type, records);
        var upserts = ReferenceData.lastByKey(records).values().stream().map(record -> {
            var fields = toJson(record.fields());
            return dsl.insertInto(REF_MASTER)
                    .set(REF_MASTER.RTYPE, type)
                    .set(REF_MASTER.RKEY, record.key())
                    .set(REF_MASTER.FIELDS, fields)
                    .set(REF_MASTER.MSG_ID, msgId)
                    .set(REF_MASTER.UPDATED_AT, now)
                    .onConflict(REF_MASTER.RTYPE, REF_MASTER.RKEY).doUpdate()
                    .set(REF_MASTER.FIELDS, fields)
                    .set(REF_MASTER.MSG_ID, msgId)
                    .set(REF_MASTER.UPDATED_AT, now)
                    .where(REF_MASTER.MSG_ID.isNull().or(REF_MASTER.MSG_ID.le(msgId)));
        }).toList();
        if (upserts.isEmpty()) {
            return;
        }
        StoreOperation.run("refreshing " + upserts.size() + " " + type + " reference record(s) of message " + msgId,
                () -> dsl.batch(upserts).execute());
    }

    @Override
    public Optional<ReferenceEntry> find(String type, String key) {
        return StoreOperation.run("reading reference record " + type + "/" + key, () -> dsl
                .selectFrom(REF_MASTER)
                .where(REF_MASTER.RTYPE.eq(type).and(REF_MASTER.RKEY.eq(key)))
                .fetchOptional(PgReferenceData::entry));
    }

    @Override
    public List<ReferenceEntry> all(String type, int limit) {
        ReferenceData.requirePositive(limit);
        return StoreOperation.run("listing " + type + " reference records", () -> dsl
                .selectFrom(REF_MASTER)
                .where(REF_MASTER.RTYPE.eq(type))
                .orderBy(KEY_ORDER)
                .limit(limit)
                .fetch(PgReferenceData::entry));
    }

    private static ReferenceEntry entry(Record row) {
        var msgId = row.get(REF_MASTER.MSG_ID);
        return new ReferenceEntry(row.get(REF_MASTER.RTYPE), row.get(REF_MASTER.RKEY),
                fromJson(row.get(REF_MASTER.RTYPE), row.get(REF_MASTER.RKEY), row.get(REF_MASTER.FIELDS)),
                msgId == null ? 0 : msgId, row.get(REF_MASTER.UPDATED_AT));
    }

    private static String toJson(Map<String, String> fields) {
        try {
            return JSON.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("reference fields could not be written as JSON: " + fields, e);
        }
    }

    private static Map<String, String> fromJson(String type, String key, String json) {
        try {
            return JSON.readValue(json, FIELDS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("REF_MASTER " + type + "/" + key + " holds FIELDS that are not a JSON object"
                    + " of strings (" + e.getOriginalMessage() + "); fix or delete the row, the next answer rewrites it", e);
        }
    }
}
