package io.msgx.tools.crash;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.Set;
import javax.sql.DataSource;

/**
 * What the runner has still to do, read from the databases: used to aim a kill (wait until the runner is at the
 * work aimed at) and to record where it landed. Open transactions are found in {@code pg_stat_activity} by the
 * application name the runner's store URL carries; a processing transaction is one whose current or last statement
 * locks {@code PIPELINE_LOCK} or touches a flight table.
 */
public final class WorkInHand {

    /** How the mailbox is reached (the AODB side's connection). */
    @FunctionalInterface
    public interface MailboxConnections {
        Connection open() throws SQLException;
    }

    /** The runner's open store transactions, and how many of them are processing transactions. */
    public record Transactions(int open, int processing) {
    }

    /**
     * One reading.
     *
     * @param watermark              the intake watermark: every mailbox ID up to it is enqueued
     * @param unread                 mailbox rows above the watermark (not enqueued yet)
     * @param open                   enqueued messages not ended (PENDING or FAILED)
     * @param ended                  enqueued messages ended (SUCCEEDED, SKIPPED or DEAD)
     * @param undelivered            outbox rows still PENDING
     * @param sent                   outbox rows the broker acknowledged (SENT)
     * @param owedMarks              ended messages whose mailbox mark is not written yet
     * @param marked                 ended messages whose mailbox mark is written
     * @param openTransactions       the runner's open store transactions
     * @param processingTransactions of those, the processing transactions
     */
    public record Reading(long watermark, long unread, long open, long ended, long undelivered, long sent,
                          long owedMarks, long marked, int openTransactions, int processingTransactions) {
    }

    /** What one kill left behind, and what it was aimed at. */
    public record AtKill(int kill, KillAim aim, boolean aimReached, long waitedMillis, long pid, int exitStatus,
                         Set<KillPhase> phases, Reading reading) {

        public AtKill {
            phases = Set.copyOf(phases);
        }

        public String line() {
            return String.format("kill %3d %-10s %-7s after %5d ms (exit %d): %-50s %s", kill, aim,
                    aimReached ? "reached" : "MISSED", waitedMillis, exitStatus, phases, reading);
        }
    }

    private final DataSource store;
    private final MailboxConnections mailbox;
    private final String applicationName;

    public WorkInHand(DataSource store, MailboxConnections mailbox, String applicationName) {
        this.store = store;
        this.mailbox = mailbox;
        this.applicationName = applicationName;
    }

    /** The runner's open store transactions now. */
    public Transactions transactions() throws SQLException {
        try (var connection = store.getConnection(); var query = connection.prepareStatement(
                "select count(*), count(*) filter (where query ilike '%pipeline_lock%' or query ilike '%flight\\_%') "
                        + "from pg_stat_activity where application_name = ? and xact_start is not null")) {
            query.setString(1, applicationName);
            try (var rows = query.executeQuery()) {
                rows.next();
                return new Transactions(rows.getInt(1), rows.getInt(2));
            }
        }
    }

    /** Everything at once. */
    public Reading read() throws SQLException {
        var transactions = transactions();
        long watermark = storeNumber("select w from inbox_cursor");
        long open = storeNumber("select count(*) from proc_state where state in ('PENDING', 'FAILED')");
        long ended = storeNumber("select count(*) from proc_state where state in ('SUCCEEDED', 'SKIPPED', 'DEAD')");
        long undelivered = storeNumber("select count(*) from msg_event where status = 'PENDING'");
        long sent = storeNumber("select count(*) from msg_event where status = 'SENT'");
        long marked = storeNumber("select count(*) from proc_state where backfill_at is not null");
        long owed = storeNumber("select count(*) from proc_state where state in ('SUCCEEDED', 'SKIPPED', 'DEAD') "
                + "and backfill_at is null and backfill_abandoned_at is null");
        long unread;
        try (var connection = mailbox.open(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select count(*) from CMINMSGS where CMINMSGS_ID > " + watermark)) {
            rows.next();
            unread = rows.getLong(1);
        }
        return new Reading(watermark, unread, open, ended, undelivered, sent, owed, marked, transactions.open(),
                transactions.processing());
    }

    /**
     * The phases a kill landed in: {@code transactions} read just before the signal (a killed session's transaction
     * is gone right after), the rest of {@code after} read once the process was gone (what it left undone).
     */
    public static Set<KillPhase> phases(boolean wasActive, boolean aodbWriting, Transactions transactions,
                                        Reading after) {
        var phases = EnumSet.noneOf(KillPhase.class);
        if (!wasActive) {
            phases.add(KillPhase.STARTING);
        }
        if (after.unread() > 0 || aodbWriting) {
            phases.add(KillPhase.INTAKE);
        }
        if (after.open() > 0) {
            phases.add(KillPhase.PROCESSING);
        }
        if (transactions.processing() > 0) {
            phases.add(KillPhase.IN_TRANSACTION);
        }
        if (after.undelivered() > 0) {
            phases.add(KillPhase.DISPATCH);
        }
        if (after.owedMarks() > 0) {
            phases.add(KillPhase.BACKFILL);
        }
        if (phases.isEmpty()) {
            phases.add(KillPhase.IDLE);
        }
        return phases;
    }

    private long storeNumber(String sql) throws SQLException {
        try (var connection = store.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
