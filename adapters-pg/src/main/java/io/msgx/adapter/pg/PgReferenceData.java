package io.msgx.adapter.pg;

import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.store.ReferenceEntry;
import io.msgx.pipeline.store.ReferenceFieldsJson;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import static io.msgx.adapter.pg.jooq.Tables.REF_MASTER;

/**
 * {@link ReferenceData} on {@code REF_MASTER}: {@code FIELDS} holds the record's document (D-58) as JSON text (a
 * {@code TEXT} column, so the member order survives). A refresh is one
 * {@code INSERT ... ON CONFLICT (RTYPE, RKEY) DO UPDATE} per record, sent as one batch, that does not overwrite a
 * record last written by a later message. Keys are listed in code-point order ({@code COLLATE "C"}), whatever
 * the database's collation.
 */
final class PgReferenceData implements ReferenceData {

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
            var fields = ReferenceFieldsJson.write(record.document());
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
    public void remove(String type, Collection<String> keys, long msgId) {
        if (keys.isEmpty()) {
            return;
        }
        StoreOperation.run("removing " + keys.size() + " " + type + " reference record(s) for message " + msgId,
                () -> dsl.deleteFrom(REF_MASTER)
                        .where(REF_MASTER.RTYPE.eq(type))
                        .and(KeySet.contains(REF_MASTER.RKEY, keys.toArray(String[]::new)))
                        .and(REF_MASTER.MSG_ID.isNull().or(REF_MASTER.MSG_ID.le(msgId)))
                        .execute());
    }

    @Override
    public Map<String, Long> writers(String type) {
        return StoreOperation.run("reading the keys of " + type + " reference records", () -> {
            var writers = new LinkedHashMap<String, Long>();
            dsl.select(REF_MASTER.RKEY, REF_MASTER.MSG_ID).from(REF_MASTER).where(REF_MASTER.RTYPE.eq(type))
                    .fetch().forEach(row -> writers.put(row.value1(), row.value2() == null ? 0L : row.value2()));
            return writers;
        });
    }

    @Override
    public Map<String, Long> countsByType() {
        return StoreOperation.run("counting reference records by type", () -> {
            var counts = new TreeMap<String, Long>();
            dsl.select(REF_MASTER.RTYPE, DSL.count()).from(REF_MASTER).groupBy(REF_MASTER.RTYPE)
                    .fetch().forEach(row -> counts.put(row.value1(), row.value2().longValue()));
            return counts;
        });
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
                ReferenceFieldsJson.read(row.get(REF_MASTER.RTYPE), row.get(REF_MASTER.RKEY), row.get(REF_MASTER.FIELDS)),
                msgId == null ? 0 : msgId, row.get(REF_MASTER.UPDATED_AT));
    }
}
