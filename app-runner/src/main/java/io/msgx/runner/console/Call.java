package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.pipeline.audit.Actor;

/**
 * One request as a page sees it once {@link Console} has let it through: the exchange (for a header to set), who asks,
 * and the request's query (a GET) or form (a POST).
 */
record Call(HttpExchange http, ConsoleAuth.Caller who, Form params) {

    /** The frame of a page titled {@code title} for this caller. */
    Frame frame(String title) {
        return Frame.of(title, who);
    }

    /** Who acts, for the audit trail: the caller's operator name, on the console, from the caller's address. */
    Actor actor() {
        return Actor.console(who.operator(), remote(http));
    }

    static String remote(HttpExchange ex) {
        var address = ex.getRemoteAddress();
        return address == null || address.getAddress() == null ? "?" : address.getAddress().getHostAddress();
    }
}
