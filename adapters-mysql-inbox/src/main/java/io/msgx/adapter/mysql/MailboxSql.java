package io.msgx.adapter.mysql;

/**
 * Every statement the adapter runs, built once from a {@link MailboxSchema} whose names are already proven safe
 * identifiers. Names are back-quoted so a reserved word is still a valid column name. A row's text is read with its
 * mailbox status (sis-format §10); a mailbox that does not read the status selects {@code NULL} in its place, so a
 * table without the column still answers (D-110).
 */
record MailboxSql(
        String readAfter,
        String readContent,
        String readContentsPrefix,
        String markedAtPrefix,
        String markAllPrefix,
        String markProcessed,
        String inboundRowExists,
        String appendInbound,
        String appendOutbound,
        String findOutbound,
        String minId,
        String maxId) {

    /** The statements of a mailbox that reads the status column. */
    static MailboxSql of(MailboxSchema schema) {
        return of(schema, true);
    }

    /** The statements; {@code readsStatus} false selects {@code NULL} for the status (the check is off). */
    static MailboxSql of(MailboxSchema schema, boolean readsStatus) {
        MailboxSchema.Inbound in = schema.inbound();
        MailboxSchema.Outbound out = schema.outbound();
        String inTable = q(in.table());
        String id = q(in.idColumn());
        String status = readsStatus ? q(in.statusColumn()) : "NULL";
        return new MailboxSql(
                "SELECT " + id + ", " + q(in.receivedColumn()) + " FROM " + inTable
                        + " WHERE " + id + " > ? ORDER BY " + id + " LIMIT ?",
                "SELECT " + q(in.clobColumn()) + ", " + status + " FROM " + inTable + " WHERE " + id + " = ?",
                "SELECT " + id + ", " + q(in.clobColumn()) + ", " + status + " FROM " + inTable + " WHERE " + id + " IN (",
                "SELECT " + id + ", " + q(in.processedColumn()) + " IS NULL, " + q(in.processedColumn()) + " = ? FROM "
                        + inTable + " WHERE " + id + " IN (",
                "UPDATE " + inTable + " SET " + q(in.processedColumn()) + " = ? WHERE " + q(in.processedColumn())
                        + " IS NULL AND " + id + " IN (",
                "UPDATE " + inTable + " SET " + q(in.processedColumn()) + " = ? WHERE " + id + " = ? AND "
                        + q(in.processedColumn()) + " IS NULL",
                "SELECT 1 FROM " + inTable + " WHERE " + id + " = ?",
                "INSERT INTO " + inTable + " (" + q(in.clobColumn()) + ", " + q(in.receivedColumn()) + ") VALUES (?, ?)",
                "INSERT INTO " + q(out.table()) + " (" + q(out.clobColumn()) + ", " + q(out.insertedColumn()) + ", "
                        + q(out.sentColumn()) + ", " + q(out.routingIdColumn()) + ") VALUES (?, ?, NULL, ?)",
                "SELECT " + q(out.idColumn()) + " FROM " + q(out.table()) + " WHERE " + q(out.insertedColumn())
                        + " >= ? AND INSTR(" + q(out.clobColumn()) + ", ?) > 0 ORDER BY " + q(out.idColumn()) + " LIMIT 1",
                "SELECT MIN(" + id + ") FROM " + inTable,
                "SELECT MAX(" + id + ") FROM " + inTable);
    }

    /** The IDs, texts and statuses of {@code count} rows named by as many parameters. */
    String readContents(int count) {
        return readContentsPrefix + parameters(count);
    }

    /**
     * The IDs of those of {@code count} rows (parameters 2 on) that exist, each with whether its processing mark is
     * empty and whether it holds the mark given as the first parameter.
     */
    String markedAt(int count) {
        return markedAtPrefix + parameters(count);
    }

    /** Set the processing mark (first parameter) of {@code count} rows whose mark is empty. */
    String markAll(int count) {
        return markAllPrefix + parameters(count);
    }

    private static String parameters(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("name at least one row, got " + count);
        }
        return "?" + ", ?".repeat(count - 1) + ")";
    }

    /** Back-quote a name that {@link MailboxSchema} has validated (it cannot contain a back-quote). */
    static String q(String safeName) {
        return "`" + safeName + "`";
    }
}
