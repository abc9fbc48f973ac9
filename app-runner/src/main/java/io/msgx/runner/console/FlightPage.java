package io.msgx.runner.console;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.operations.OperatorActions;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code /console/flight?flid=|flno=&day=}: one flight's state as the store holds it (version, master or MAFL,
 * fields, lists) and the messages that changed it, newest first; a flight number picks among its flights.
 */
final class FlightPage extends ActionPage {

    /** The notifications of a flight listed at most. */
    private static final int CHANGES_LIMIT = 100;

    /**
     * What {@code flight.jte} shows: the lookup as typed, the flights to pick from when several match, the flight
     * (null when none was asked for or found) and what went wrong.
     */
    record Model(Frame frame, String flid, String flno, String day, List<FlightId> matches, Shown flight,
                 String problem) {
    }

    /** The flight, its non-empty lists and its {@code KAFKA:msg} notifications, newest first. */
    record Shown(OperatorActions.FlightView view, List<Map.Entry<FlightList, List<ListItem>>> lists,
                 List<OutboxEntry> changes) {

        String operationDay() {
            var day = view.flight().operationDay();
            return day == null ? null : day.date().toString();
        }
    }

    FlightPage(MsgExchange exchange, OperatorActions operator, Templates templates) {
        super(exchange, operator, templates);
    }

    Answer page(Call call) {
        var query = call.params();
        FlightId flid = null;
        List<FlightId> matches = List.of();
        String problem = null;
        if (query.get("flid") != null) {
            if (FlightId.isValid(query.get("flid"))) {
                flid = FlightId.of(query.get("flid"));
            } else {
                problem = "Not a FLID: " + query.get("flid");
            }
        } else if (query.get("flno") != null) {
            try {
                var day = query.get("day") == null ? null : LocalDate.parse(query.get("day"));
                var flno = query.get("flno").replace(" ", "").toUpperCase(Locale.ROOT);
                var found = exchange.store().flightQueries().findByFlightNumber(flno, day);
                if (found.size() == 1) {
                    flid = found.get(0);
                } else if (found.isEmpty()) {
                    problem = "No flight " + flno + (day == null ? "" : " on " + day) + ".";
                } else {
                    matches = found;
                }
            } catch (DateTimeParseException e) {
                problem = "Not a day (yyyy-MM-dd): " + query.get("day");
            }
        }
        Shown shown = null;
        boolean missing = false;
        if (flid != null) {
            var view = operator.flight(flid);
            if (view.isEmpty()) {
                problem = "No flight " + flid.value() + " in the current state (it may have moved to FLIGHT_HST).";
                missing = true;
            } else {
                shown = shown(view.get());
            }
        }
        var model = new Model(call.frame("Flight"), MessagePage.orEmpty(query.get("flid")),
                MessagePage.orEmpty(query.get("flno")), MessagePage.orEmpty(query.get("day")), matches, shown, problem);
        return Answer.html(missing ? 404 : 200, templates.render("flight", model));
    }

    private Shown shown(OperatorActions.FlightView view) {
        var flight = view.flight();
        var lists = flight.lists().asMap().entrySet().stream().filter(e -> !e.getValue().isEmpty()).toList();
        var changes = exchange.store().notifications().notificationsOf(flight.flid(), CHANGES_LIMIT);
        return new Shown(view, lists, changes);
    }
}
