package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/** {@code /console/login} and {@code /console/logout}: the session of a browser ({@link ConsoleAuth}). */
final class LoginPage {

    /** The session's AUDIT lines keep the logger they always had. */
    private static final Logger log = LoggerFactory.getLogger(Console.class);

    /** What {@code login.jte} shows: where to go after (a console path) and what went wrong (null the first time). */
    record Model(Frame frame, String next, String problem) {
    }

    private final ConsoleAuth auth;
    private final Templates templates;

    LoginPage(ConsoleAuth auth, Templates templates) {
        this.auth = auth;
        this.templates = templates;
    }

    Answer form(String next) {
        return form(200, next, null);
    }

    /** The form POSTed: a session for the operator named, from this origin and with the right token only. */
    Answer login(HttpExchange ex) throws IOException {
        var form = Form.read(ex.getRequestBody());
        if (form == null || !ConsoleAuth.sameOrigin(ex)) {
            return form(403, null, "Refused: log in from the console's own page.");
        }
        var operator = ConsoleAuth.operatorName(form.get("operator"));
        var next = form.get("next");
        if (operator == null) {
            return form(400, next, "Give your name: every action is logged with it.");
        }
        if (!auth.tokenMatches(form.get("token"))) {
            log.warn("AUDIT console login refused for '{}' from {}: wrong token", operator, Call.remote(ex));
            return form(401, next, "Wrong token.");
        }
        ex.getResponseHeaders().add("Set-Cookie", auth.open(operator));
        log.info("AUDIT console login by {} from {}", operator, Call.remote(ex));
        ex.getResponseHeaders().set("Location", Console.safeNext(next));
        return Notice.LOGGED_IN.answer(templates, null, null);
    }

    Answer logout(Call call) {
        call.http().getResponseHeaders().add("Set-Cookie", auth.close(call.who()));
        log.info("AUDIT console logout by {} from {}", call.who().operator(), Call.remote(call.http()));
        call.http().getResponseHeaders().set("Location", Console.PREFIX + "/login");
        return Notice.LOGGED_OUT.answer(templates, null, null);
    }

    private Answer form(int status, String next, String problem) {
        return Answer.html(status, templates.render("login",
                new Model(Frame.of("Log in", null), Console.safeNext(next), problem)));
    }
}
