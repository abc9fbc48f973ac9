package io.msgx.adapter.jdbc;

import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.audit.AuditEntry;
import io.msgx.pipeline.audit.AuditOutcome;
import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.port.OperatorAudit;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@link OperatorAudit} on {@code OPERATOR_AUDIT} (D-137): one INSERT per row, its ID from {@code OPERATOR_AUDIT_SEQ}
 * (Oracle) or the identity column (PostgreSQL); on the connection of the transaction it was made for, or auto-committed.
 * The items, what changed, what was refused and the detail are long texts ({@code TEXT}, {@code CLOB}): a replay of
 * 500 IDs is recorded whole. No statement here updates a row.
 */
public final class JdbcOperatorAudit implements OperatorAudit {

    private static final String COLUMNS = "ID, RECORDED_AT, OPERATOR, CHANNEL, ORIGIN, ACTION, ITEMS, OUTCOME, CHANGED,"
            + " REFUSED, DETAIL";

    private final StoreJdbc sql;
    private final String insert;

    public JdbcOperatorAudit(StoreJdbc sql) {
        this.sql = sql;
        this.insert = "INSERT INTO OPERATOR_AUDIT (" + COLUMNS + ") VALUES ("
                + sql.dialect().generatedKey("OPERATOR_AUDIT_SEQ") + ", ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    }

    @Override
    public void append(AuditEntry entry) {
        Objects.requireNonNull(entry, "entry");
        var actor = entry.actor();
        var result = entry.result();
        sql.run("appending the audit row of " + entry.action() + " by " + actor.name(), session -> session.update(
                insert, entry.at(), actor.name(), actor.channel().code(),
                sql.fitted(actor.source(), Actor.MAX_SOURCE_LENGTH), entry.action(), new StoreJdbc.LongText(entry.items()),
                result.outcome().name(), new StoreJdbc.LongText(result.changed()), new StoreJdbc.LongText(result.refused()),
                new StoreJdbc.LongText(result.detail())));
    }

    @Override
    public List<Stored> newestFirst(Filter filter) {
        Objects.requireNonNull(filter, "filter");
        var where = new ArrayList<String>();
        var params = new ArrayList<Object>();
        if (filter.since() != null) {
            where.add("RECORDED_AT >= ?");
            params.add(filter.since());
        }
        if (filter.operator() != null) {
            where.add("OPERATOR = ?");
            params.add(filter.operator());
        }
        if (filter.action() != null) {
            where.add("ACTION = ?");
            params.add(filter.action());
        }
        params.add(filter.limit());
        var query = sql.firstRows("SELECT " + COLUMNS + " FROM OPERATOR_AUDIT"
                + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
                + " ORDER BY RECORDED_AT DESC, ID DESC");
        return sql.run("reading the operator audit trail", session -> session.list(query, JdbcOperatorAudit::stored,
                params.toArray()));
    }

    private static Stored stored(StoreJdbc.Row row) throws SQLException {
        var actor = new Actor(row.text("OPERATOR"), Actor.Channel.ofCode(row.text("CHANNEL")), row.text("ORIGIN"));
        var result = new AuditResult(AuditOutcome.valueOf(row.text("OUTCOME")), row.text("CHANGED"),
                row.text("REFUSED"), row.text("DETAIL"));
        return new Stored(row.longValue("ID"), new AuditEntry(row.instant("RECORDED_AT"), actor, row.text("ACTION"),
                row.text("ITEMS"), result));
    }
}
