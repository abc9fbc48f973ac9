package io.msgx.adapter.pg;

import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.store.ReferenceData;
import io.msgx.pipeline.store.ReferenceEntry;
import io.msgx.pipeline.store.ReferenceFieldsJson;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

import java.time.Instant;
import java.util.List;
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
            var fields = ReferenceFieldsJson.write(record.fields());
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
                ReferenceFieldsJson.read(row.get(REF_MASTER.RTYPE), row.get(REF_MASTER.RKEY), row.get(REF_MASTER.FIELDS)),
                msgId == null ? 0 : msgId, row.get(REF_MASTER.UPDATED_AT));
    }
}
