package io.msgx.tools.soak;

import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.tools.simulator.AirportDay;
import io.msgx.tools.simulator.SimulatedMessage;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The AODB's side of the shared mailbox, as far as the soak needs it: it answers each schedule request ({@code RQFD}
 * in {@code COUTMSGS}) with a {@code SCHD RESP} echoing the request's {@code SEQN} as {@code RQSN}, carrying the
 * first schedule package of the day asked for; and it purges what a real AODB side purges, the inbound rows marked
 * processed more than {@code keepMarked} ago and the outbound rows older than that, so the mailbox stays the size a
 * site's does.
 */
final class AodbCounterpart {

    private static final Pattern SEQN = Pattern.compile("<SEQN>([^<]+)</SEQN>");
    private static final SisMessages SIS = new SisMessages();
    private static final Pattern WINDOW_START = Pattern.compile("<STDB>(\\d{2}[A-Z]{3}\\d{2})\\d{4}</STDB>");
    private static final DateTimeFormatter SIS_DAY = DateTimeFormatter.ofPattern("ddMMMyy", Locale.ENGLISH);

    private final Callable<Connection> connections;
    private final Mailbox mailbox;
    private final Function<LocalDate, AirportDay> days;
    private final ZoneId airport;
    private final Duration keepMarked;
    private final java.util.function.LongSupplier sequence;
    private long lastOutbound;
    private int answered;

    /**
     * @param sequence the {@code SEQN} the AODB is at: an answer takes it (its {@code TYPE}/{@code STYP} keep its
     *                 identity its own), so the stream never looks restarted
     */
    AodbCounterpart(Callable<Connection> connections, Mailbox mailbox, Function<LocalDate, AirportDay> days,
                    java.util.function.LongSupplier sequence, ZoneId airport, Duration keepMarked) {
        this.sequence = sequence;
        this.connections = connections;
        this.mailbox = mailbox;
        this.days = days;
        this.airport = airport;
        this.keepMarked = keepMarked;
    }

    /** Answer every request written since the last call; returns how many. */
    int answerRequests(Instant now) throws Exception {
        int count = 0;
        try (var connection = connections.call(); var statement = connection.prepareStatement(
                "SELECT COUTMSGS_ID, COUTMSGS_CLOB_MSG FROM COUTMSGS WHERE COUTMSGS_ID > ? ORDER BY COUTMSGS_ID")) {
            statement.setLong(1, lastOutbound);
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    lastOutbound = rows.getLong(1);
                    var request = rows.getString(2);
                    if (request.contains("<TYPE>RQFD</TYPE>")) {
                        mailbox.appendInbound(answer(request), now);
                        count++;
                    }
                }
            }
        }
        answered += count;
        return count;
    }

    private String answer(String request) {
        var seqn = find(SEQN, request);
        var day = LocalDate.parse(capitalised(find(WINDOW_START, request)), SIS_DAY);
        var plan = days.apply(day).messagesOf(SimulatedMessage.Kind.SCHEDULE).get(0).xml();
        return SIS.withSeqn(plan, sequence.getAsLong())
                .replaceFirst("<STYP>DNLD</STYP>", "<STYP>RESP</STYP><RQSN>" + seqn + "</RQSN>");
    }

    private static String find(Pattern pattern, String text) {
        var matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("not a request the soak's AODB understands: " + text);
        }
        return matcher.group(1);
    }

    /** {@code 12MAR24} as {@link DateTimeFormatter} reads it: {@code 12Mar24}. */
    private static String capitalised(String sisDay) {
        return sisDay.substring(0, 3) + sisDay.substring(3, 5).toLowerCase(Locale.ROOT) + sisDay.substring(5);
    }

    /** Delete what the AODB side would have purged by {@code now}; returns the rows deleted. */
    int purge(Instant now) throws SQLException, Exception {
        var before = Timestamp.valueOf(LocalDateTime.ofInstant(now.minus(keepMarked), airport));
        try (var connection = connections.call();
             var inbound = connection.prepareStatement("DELETE FROM CMINMSGS WHERE CMINMSGS_DATE_PROCESSED < ?");
             var outbound = connection.prepareStatement("DELETE FROM COUTMSGS WHERE COUTMSGS_DATE_INSERTED < ?")) {
            inbound.setTimestamp(1, before);
            outbound.setTimestamp(1, before);
            return inbound.executeUpdate() + outbound.executeUpdate();
        }
    }

    int answered() {
        return answered;
    }
}
