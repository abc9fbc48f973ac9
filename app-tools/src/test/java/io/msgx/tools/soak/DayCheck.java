package io.msgx.tools.soak;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * What must hold at the end of every simulated day, each broken promise as one line: nothing lost (every message
 * ended, every mailbox row marked, no mark abandoned, every outbox row delivered), nothing wrong (no message dead for a
 * reason of ours), Kafka telling the truth ({@code FLIGHT_SCHD} equals the compacted {@code schd} topic, the
 * {@code msg} topic's last version of each flight is the stored one) and no version gone back on either topic.
 */
final class DayCheck {

    private final DataSource store;
    private final Callable<Connection> aodb;
    private final TopicLedger ledger;

    DayCheck(DataSource store, Callable<Connection> aodb, TopicLedger ledger) {
        this.store = store;
        this.aodb = aodb;
        this.ledger = ledger;
    }

    List<String> problems() throws Exception {
        var problems = new ArrayList<String>();
        try (var connection = store.getConnection(); var sql = connection.createStatement()) {
            expectNone(problems, sql, "messages still open", "SELECT COUNT(*) FROM PROC_STATE"
                    + " WHERE STATE IN ('PENDING', 'FAILED')");
            expectNone(problems, sql, "messages DEAD for a reason of ours", "SELECT COUNT(*) FROM PROC_STATE"
                    + " WHERE STATE = 'DEAD' AND ERROR_CLASS NOT IN ('MALFORMED', 'PROTOCOL')");
            expectNone(problems, sql, "mailbox marks abandoned", "SELECT COUNT(*) FROM PROC_STATE"
                    + " WHERE BACKFILL_ABANDONED_AT IS NOT NULL");
            expectNone(problems, sql, "outbox rows not delivered", "SELECT COUNT(*) FROM MSG_EVENT WHERE STATUS <> 'SENT'");
            var stored = new HashMap<String, Long>();
            var active = new HashMap<String, Long>();
            try (var rows = sql.executeQuery("SELECT FLID, STATE, STATE_VERSION FROM FLIGHT_SCHD")) {
                while (rows.next()) {
                    stored.put(rows.getString(1), rows.getLong(3));
                    if (rows.getString(2).equals("ACTIVE")) {
                        active.put(rows.getString(1), rows.getLong(3));
                    }
                }
            }
            var compacted = ledger.compactedSchd();
            if (!compacted.equals(active)) {
                var differences = new ArrayList<String>();
                active.forEach((flid, version) -> {
                    if (!version.equals(compacted.get(flid))) {
                        differences.add(flid + ": stored " + version + ", topic " + compacted.get(flid));
                    }
                });
                compacted.forEach((flid, version) -> {
                    if (!active.containsKey(flid)) {
                        differences.add(flid + ": not ACTIVE in FLIGHT_SCHD, topic " + version);
                    }
                });
                problems.add("FLIGHT_SCHD differs from the compacted schd topic: " + sample(differences));
            }
            var unnotified = new ArrayList<String>();
            stored.forEach((flid, version) -> {
                if (!version.equals(ledger.lastNotified(flid))) {
                    unnotified.add(flid + ": stored " + version + ", msg " + ledger.lastNotified(flid));
                }
            });
            if (!unnotified.isEmpty()) {
                problems.add("the msg topic's last version differs from the stored one: " + sample(unnotified));
            }
        }
        try (var connection = aodb.call(); var sql = connection.createStatement()) {
            expectNone(problems, sql, "mailbox rows without their processing mark",
                    "SELECT COUNT(*) FROM CMINMSGS WHERE CMINMSGS_DATE_PROCESSED IS NULL");
        }
        if (!ledger.versionsBack().isEmpty()) {
            problems.add("versions gone back: " + sample(ledger.versionsBack()));
        }
        return problems;
    }

    private static void expectNone(List<String> problems, java.sql.Statement sql, String what, String count)
            throws java.sql.SQLException {
        try (var rows = sql.executeQuery(count)) {
            rows.next();
            if (rows.getLong(1) != 0) {
                problems.add(rows.getLong(1) + " " + what);
            }
        }
    }

    private static String sample(List<String> lines) {
        return lines.size() <= 5 ? lines.toString() : lines.subList(0, 5) + " and " + (lines.size() - 5) + " more";
    }
}
