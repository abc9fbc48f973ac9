package io.msgx.tools.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * The soak's figures as a Markdown report: one line per day (messages, digest time per message, heap, rows of the
 * store's main tables), the plateau verdict of every table and the cost of the last days against the first.
 *
 * <p>A table has reached its plateau when, over the last {@value #WINDOW} days, it never held more than
 * {@value #SLACK_PERCENT} % (plus {@value #SLACK_ROWS} rows) above its largest count of the {@value #WINDOW} days before:
 * a table that grows with the days the service has run fails this, one whose retention holds it does not.
 */
final class SoakReport {

    static final int WINDOW = 7;
    static final int SLACK_PERCENT = 15;
    static final int SLACK_ROWS = 20;
    private static final List<String> SHOWN = List.of("PROC_STATE", "PROC_STATE_HST", "FLIGHT_SCHD", "FLIGHT_GTDT",
            "FLIGHT_HST", "MSG_EVENT", "REF_MASTER", "REQ_TRACK", "SCHD_SNAP_LOG", "RAW_MSG_COPY", "mailbox CMINMSGS");

    private final LifetimeSoak.Settings settings;
    private final List<LifetimeSoak.Day> days;

    SoakReport(LifetimeSoak.Settings settings, List<LifetimeSoak.Day> days) {
        this.settings = settings;
        this.days = days.stream().filter(d -> d.date() != null).toList();
    }

    static String line(LifetimeSoak.Day day) {
        return String.format(Locale.ROOT, "[soak] day %d %s: %d fed, %d processed, %.0f µs/message, heap %d MiB, %s, "
                        + "%d ms (jobs, ms: %s)%s", day.index(), day.date(), day.fed(), day.processed(),
                day.digestMicrosPerMessage(), day.heapMiB(), day.rows(), day.wall().toMillis(), day.jobMillis(),
                day.problems().isEmpty() ? "" : " PROBLEMS " + day.problems());
    }

    /** The tables that did not reach their plateau (empty when too few days ran to tell). */
    List<String> unbounded() {
        var growing = new ArrayList<String>();
        if (days.size() < 3 * WINDOW) {
            return growing;
        }
        var tables = new TreeSet<String>();
        days.forEach(d -> tables.addAll(d.rows().keySet()));
        for (var table : tables) {
            long before = max(table, days.size() - 2 * WINDOW, days.size() - WINDOW);
            long last = max(table, days.size() - WINDOW, days.size());
            if (last > before * (100 + SLACK_PERCENT) / 100 + SLACK_ROWS) {
                growing.add(table + ": " + before + " → " + last);
            }
        }
        return growing;
    }

    private long max(String table, int from, int to) {
        return days.subList(from, to).stream().mapToLong(d -> d.rows().getOrDefault(table, 0L)).max().orElse(0);
    }

    /** Mean digest time per message of the last three days ÷ that of days 2 to 4 (day 1 warms the JIT up). */
    double costRatio() {
        if (days.size() < 7) {
            return Double.NaN;
        }
        double early = days.subList(1, 4).stream().mapToDouble(LifetimeSoak.Day::digestMicrosPerMessage).average()
                .orElse(Double.NaN);
        double late = days.subList(days.size() - 3, days.size()).stream()
                .mapToDouble(LifetimeSoak.Day::digestMicrosPerMessage).average().orElse(Double.NaN);
        return late / early;
    }

    String markdown() {
        var out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "# Lifetime soak: %d days of %d flights, steps of %s%n%n", days.size(),
                settings.flights(), settings.step()));
        out.append("| day | date | fed | processed | µs/msg | heap MiB |");
        SHOWN.forEach(t -> out.append(' ').append(t).append(" |"));
        out.append(" wall s | problems |\n|");
        out.append("---|".repeat(6 + SHOWN.size() + 2)).append('\n');
        for (var day : days) {
            out.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %.0f | %d |", day.index(), day.date(), day.fed(),
                    day.processed(), day.digestMicrosPerMessage(), day.heapMiB()));
            SHOWN.forEach(t -> out.append(' ').append(day.rows().getOrDefault(t, 0L)).append(" |"));
            out.append(String.format(Locale.ROOT, " %.1f | %s |%n", day.wall().toMillis() / 1000.0,
                    day.problems().isEmpty() ? "" : String.join("; ", day.problems())));
        }
        out.append(String.format(Locale.ROOT, "%nCost: digest time per message of the last 3 days ÷ days 2-4 = %.2f%n",
                costRatio()));
        var growing = unbounded();
        out.append(days.size() < 3 * WINDOW ? "\nToo few days to judge the plateaus.\n"
                : growing.isEmpty() ? "\nEvery table of the store and of the mailbox reached its plateau.\n"
                : "\nStill growing: " + growing + "\n");
        if (!days.isEmpty()) {
            out.append("\nRows of every table on the last day: ").append(days.get(days.size() - 1).rows()).append('\n');
        }
        return out.toString();
    }
}
