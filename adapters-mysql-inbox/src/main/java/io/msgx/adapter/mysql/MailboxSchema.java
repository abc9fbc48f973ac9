package io.msgx.adapter.mysql;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The table and column names of the shared mailbox. The AODB side owns that schema, so every name is configuration;
 * {@link #defaults()} gives the names of sis-format §1.
 *
 * <p>Guarantee: every name held here matches {@code [A-Za-z_][A-Za-z0-9_$]*} and is at most 64 characters (MySQL's
 * identifier limit), so the adapter can splice it into SQL (always back-quoted) without any risk of injection. A name
 * that does not is refused at construction with an {@link IllegalArgumentException} that names the setting.
 *
 * @param inbound  the names of {@code CMINMSGS}, written by the AODB side, read and marked by us
 * @param outbound the names of {@code COUTMSGS}, written by us
 */
public record MailboxSchema(Inbound inbound, Outbound outbound) {

    private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");
    private static final int MAX_NAME_LENGTH = 64;

    public MailboxSchema {
        Objects.requireNonNull(inbound, "MailboxSchema.inbound");
        Objects.requireNonNull(outbound, "MailboxSchema.outbound");
    }

    /** The names of sis-format §1: {@code CMINMSGS} and {@code COUTMSGS} with their documented columns. */
    public static MailboxSchema defaults() {
        return new MailboxSchema(Inbound.defaults(), Outbound.defaults());
    }

    /**
     * The inbound table {@code CMINMSGS}. The status column is read with the text (sis-format §10, D-110), never
     * written; the subsystem columns are never read, they are named only so that {@link MailboxDdl} creates the full
     * table.
     */
    public record Inbound(
            String table,
            String idColumn,
            String clobColumn,
            String receivedColumn,
            String processedColumn,
            String subsystemNameColumn,
            String subsystemTypeColumn,
            String subsystemSubtypeColumn,
            String subsystemSequenceColumn,
            String statusColumn) {

        public Inbound {
            requireSafe("inbound.table", table);
            requireSafe("inbound.idColumn", idColumn);
            requireSafe("inbound.clobColumn", clobColumn);
            requireSafe("inbound.receivedColumn", receivedColumn);
            requireSafe("inbound.processedColumn", processedColumn);
            requireSafe("inbound.subsystemNameColumn", subsystemNameColumn);
            requireSafe("inbound.subsystemTypeColumn", subsystemTypeColumn);
            requireSafe("inbound.subsystemSubtypeColumn", subsystemSubtypeColumn);
            requireSafe("inbound.subsystemSequenceColumn", subsystemSequenceColumn);
            requireSafe("inbound.statusColumn", statusColumn);
        }

        /** {@code CMINMSGS} as in sis-format §1. */
        public static Inbound defaults() {
            return new Inbound("CMINMSGS", "CMINMSGS_ID", "CMINMSGS_CLOB_MSG", "CMINMSGS_DATE_RECEIVED",
                    "CMINMSGS_DATE_PROCESSED", "CMINMSGS_SUBSYSTEM_NAME", "CMINMSGS_SUBSYSTEM_TYPE",
                    "CMINMSGS_SUBSYSTEM_SUBTYPE", "CMINMSGS_SUBSYSTEM_SEQUENCE", "CMINMSGS_STATUS");
        }
    }

    /** The outbound table {@code COUTMSGS}. */
    public record Outbound(
            String table,
            String idColumn,
            String clobColumn,
            String insertedColumn,
            String sentColumn,
            String routingIdColumn) {

        public Outbound {
            requireSafe("outbound.table", table);
            requireSafe("outbound.idColumn", idColumn);
            requireSafe("outbound.clobColumn", clobColumn);
            requireSafe("outbound.insertedColumn", insertedColumn);
            requireSafe("outbound.sentColumn", sentColumn);
            requireSafe("outbound.routingIdColumn", routingIdColumn);
        }

        /** {@code COUTMSGS} as in sis-format §1. */
        public static Outbound defaults() {
            return new Outbound("COUTMSGS", "COUTMSGS_ID", "COUTMSGS_CLOB_MSG", "COUTMSGS_DATE_INSERTED",
                    "COUTMSGS_DATE_SENT", "ROUTINGID");
        }
    }

    private static void requireSafe(String setting, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("mailbox schema setting '" + setting + "' is empty: give the "
                    + "table or column name the AODB side uses (see sis-format §1 for the defaults)");
        }
        if (name.length() > MAX_NAME_LENGTH || !SAFE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("mailbox schema setting '" + setting + "' = '" + name
                    + "' is not a plain SQL identifier: use only letters, digits, '_' and '$', not starting with a "
                    + "digit, at most " + MAX_NAME_LENGTH + " characters. Check the mailbox table/column configuration.");
        }
    }
}
