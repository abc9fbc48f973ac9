package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;
import io.msgx.runner.http.AccessGate;
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

    /**
     * The form POSTed: a session for the credential whose secret was given, with the role operator, from this origin
     * only. The name in the session (and in every audit line and row) is the credential's.
     */
    Answer login(HttpExchange ex) throws IOException {
        var form = Form.read(ex.getRequestBody());
        if (form == null || !ConsoleAuth.sameOrigin(ex)) {
            return form(403, null, "Refused: log in from the console's own page.");
        }
        var next = form.get("next");
        var client = AccessGate.client(ex);
        var access = auth.login(form.get("secret"), client);
        if (access instanceof AccessGate.Access.Refused refused) {
            if (refused.status() == 429) {
                ex.getResponseHeaders().set("Retry-After", Long.toString(AccessGate.WINDOW.toSeconds()));
            }
            return form(refused.status(), next, switch (refused.status()) {
                case 429 -> "Too many failed attempts from this address; wait a minute.";
                case 403 -> "This credential may not use the console (it lacks the role operator).";
                default -> "Wrong secret.";
            });
        }
        var operator = ((AccessGate.Access.Granted) access).credential().name();
        ex.getResponseHeaders().add("Set-Cookie", auth.open(operator, "https".equals(ex.getRequestURI().getScheme())));
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
