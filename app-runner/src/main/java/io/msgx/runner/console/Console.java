package io.msgx.runner.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.AccessGate;
import io.msgx.runner.operations.OperatorActions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operations console: the pipeline at a glance in a browser, served under {@value #PREFIX} by the runner's own
 * HTTP side (same port, same token). Plain server-rendered HTML; one small script ({@code console.js}, from the
 * jar) refreshes the overview from {@code /console/api/overview} and nothing else.
 *
 * <p>This class is the router: it sets the security headers, serves the static files, checks who asks and whether
 * a POST may act (session or bearer, same origin and form token: {@link ConsoleAuth}), all here and nowhere else, and
 * then hands the request to the page or action of its path. Each page is a class that reads what it shows and
 * renders it through its template ({@link Templates}); every action goes through {@link OperatorActions}, the
 * operator API the CLI calls too.
 *
 * <table>
 *   <caption>Pages and actions</caption>
 *   <tr><td>{@code GET /console/}</td><td>{@link OverviewPage}: watermark and lag, hole, backlog, throughput, counts,
 *   role</td></tr>
 *   <tr><td>{@code GET /console/api/overview}</td><td>the overview as JSON</td></tr>
 *   <tr><td>{@code GET /console/message?id=|identity=}</td><td>{@link MessagePage}: record, raw XML; POST
 *   {@code replay}</td></tr>
 *   <tr><td>{@code GET /console/flight?flid=|flno=&day=}</td><td>{@link FlightPage}: state, lists, MAFL,
 *   messages</td></tr>
 *   <tr><td>{@code GET /console/dead?class=}</td><td>{@link DeadPage}: DEAD messages; POST {@code replay-class} (a
 *   whitelisted class)</td></tr>
 *   <tr><td>{@code GET /console/events}</td><td>{@link EventsPage}: DEAD outbox events (D-67); POST
 *   {@code events/resend|purge|rearm}</td></tr>
 *   <tr><td>{@code GET /console/abandoned}</td><td>{@link AbandonedPage}: abandoned mailbox marks; POST
 *   {@code reopen|reconcile}</td></tr>
 *   <tr><td>{@code GET /console/reference[?type=[&key=]]}</td><td>{@link ReferencePage}: reference data (sis-format
 *   §6, D-58)</td></tr>
 *   <tr><td>{@code GET /console/audit?since=&operator=&action=&limit=}</td><td>{@link AuditPage}: the operator audit
 *   trail, newest first (D-137); read-only</td></tr>
 *   <tr><td>{@code GET|POST /console/login}, {@code POST /console/logout}</td><td>{@link LoginPage}: the session</td></tr>
 * </table>
 *
 * Without a credential of role {@code operator} every page answers 403: the console is off, never open.
 */
public final class Console implements HttpHandler, AutoCloseable {

    public static final String PREFIX = "/console";

    private static final Logger log = LoggerFactory.getLogger(Console.class);

    /** The rows a list page (DEAD messages, DEAD events, abandoned marks) shows at most: the oldest. */
    static final int LIST_LIMIT = 500;

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private final ConsoleAuth auth;
    private final Templates templates = new Templates();
    private final LoginPage login;
    private final OverviewPage overview;
    private final Map<String, Page> reads = new LinkedHashMap<>();
    private final Map<String, Page> actions = new LinkedHashMap<>();
    private final Map<String, String> statics = new LinkedHashMap<>();

    /**
     * @param exchange the pipeline shown
     * @param gate     the HTTP side's credentials; without one of role operator the console is off (403)
     */
    public Console(MsgExchange exchange, AccessGate gate) {
        this.auth = new ConsoleAuth(gate, exchange.clock());
        this.login = new LoginPage(auth, templates);
        this.overview = new OverviewPage(exchange, templates);
        var operator = new OperatorActions(exchange);
        var message = new MessagePage(exchange, operator, templates);
        var flight = new FlightPage(exchange, operator, templates);
        var dead = new DeadPage(exchange, operator, templates);
        var events = new EventsPage(operator, templates);
        var abandoned = new AbandonedPage(exchange, operator, templates);
        var reference = new ReferencePage(exchange, templates);
        var audit = new AuditPage(operator, templates);

        reads.put(PREFIX, overview::page);
        reads.put(PREFIX + "/", overview::page);
        reads.put(PREFIX + "/api/overview", overview::api);
        reads.put(PREFIX + "/message", message::page);
        reads.put(PREFIX + "/flight", flight::page);
        reads.put(PREFIX + "/dead", dead::page);
        reads.put(PREFIX + "/abandoned", abandoned::page);
        reads.put(PREFIX + "/events", events::page);
        reads.put(PREFIX + "/reference", reference::page);
        reads.put(PREFIX + "/audit", audit::page);

        actions.put(PREFIX + "/logout", login::logout);
        actions.put(PREFIX + "/replay", message::replay);
        actions.put(PREFIX + "/replay-class", dead::replayClass);
        actions.put(PREFIX + "/reopen", abandoned::reopen);
        actions.put(PREFIX + "/reconcile", abandoned::reconcile);
        actions.put(PREFIX + "/events/resend", events::resend);
        actions.put(PREFIX + "/events/purge", events::purge);
        actions.put(PREFIX + "/events/rearm", events::rearm);

        for (var name : List.of("console.css", "console.js")) {
            statics.put(name, resource("/console/" + name));
        }
    }

    @Override
    public void close() {
        overview.close();
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try {
            var headers = ex.getResponseHeaders();
            headers.set("Content-Security-Policy", CSP);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Referrer-Policy", "same-origin");
            headers.set("Cache-Control", "no-store");
            send(ex, route(ex));
        } catch (IOException e) {
            log.debug("{} {}: the connection failed while answering: {}", ex.getRequestMethod(),
                    ex.getRequestURI().getPath(), e.toString());
        } catch (RuntimeException e) {
            log.error("Console {} {} failed; answered 500", ex.getRequestMethod(), ex.getRequestURI().getPath(), e);
            try {
                send(ex, Notice.FAILED.answer(templates, null, null));
            } catch (IOException | RuntimeException ignored) {
                // the headers went out already, or the client left
            }
        } finally {
            ex.close();
        }
    }

    /** Who may see or do what is decided here, for every page and action alike; then the path's page answers. */
    private Answer route(HttpExchange ex) throws IOException {
        var path = ex.getRequestURI().getPath();
        var method = ex.getRequestMethod();
        boolean get = "GET".equals(method) || "HEAD".equals(method);
        boolean post = "POST".equals(method);
        if (path.startsWith(PREFIX + "/static/")) {
            return serveStatic(path.substring((PREFIX + "/static/").length()));
        }
        if (!auth.enabled()) {
            return Notice.CONSOLE_OFF.answer(templates, null, null);
        }
        if (path.equals(PREFIX + "/login")) {
            if (get) {
                return login.form(Form.parse(ex.getRequestURI().getRawQuery()).get("next"));
            }
            return post ? login.login(ex) : methodNotAllowed(ex, "GET, POST");
        }
        var caller = auth.caller(ex);
        if (caller.isEmpty()) {
            if (get && !path.startsWith(PREFIX + "/api/")) {
                var query = ex.getRequestURI().getRawQuery();
                var next = path + (query == null ? "" : "?" + query);
                ex.getResponseHeaders().set("Location", PREFIX + "/login?next=" + Html.url(next));
                return Notice.LOG_IN_FIRST.answer(templates, null, null);
            }
            if (post) {
                log.info("AUDIT console {} {} refused: no valid session or token (from {})", method, path,
                        Call.remote(ex));
            }
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"msgx-console\"");
            return Notice.NOT_LOGGED_IN.answer(templates, null, null);
        }
        var who = caller.get();
        if (get) {
            var page = reads.get(path);
            return page == null ? Notice.NO_SUCH_PAGE.answer(templates, who, null)
                    : page.answer(new Call(ex, who, Form.parse(ex.getRequestURI().getRawQuery())));
        }
        if (!post) {
            return methodNotAllowed(ex, "GET");
        }
        var form = Form.read(ex.getRequestBody());
        if (form == null) {
            return Notice.TOO_LARGE.answer(templates, who, null);
        }
        if (!auth.mayAct(ex, who, form.get("csrf"))) {
            log.info("AUDIT console {} refused for {} (from {}): not from the console's own origin or without its"
                    + " form token", path, who.operator(), Call.remote(ex));
            return Notice.REFUSED.answer(templates, who, null);
        }
        var action = actions.get(path);
        if (action == null) {
            return Notice.NO_SUCH_ACTION.answer(templates, who, null);
        }
        try {
            return action.answer(new Call(ex, who, form));
        } catch (IllegalArgumentException e) {
            return Notice.NOT_DONE.answer(templates, who, e.getMessage());
        }
    }

    /** Only a path inside the console: never another site (no open redirect). */
    static String safeNext(String next) {
        if (next == null || !next.startsWith(PREFIX + "/") || next.startsWith("//") || next.contains("\\")
                || next.chars().anyMatch(Character::isISOControl)) {
            return PREFIX + "/";
        }
        return next;
    }

    private Answer serveStatic(String name) {
        var text = statics.get(name);
        if (text == null) {
            return new Answer(404, "text/plain; charset=utf-8", "no such file");
        }
        return new Answer(200, name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8", text);
    }

    private static Answer methodNotAllowed(HttpExchange ex, String allow) {
        ex.getResponseHeaders().set("Allow", allow);
        return new Answer(405, "text/plain; charset=utf-8", "use " + allow);
    }

    private static void send(HttpExchange ex, Answer answer) throws IOException {
        var bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", answer.type());
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(answer.status(), head || bytes.length == 0 ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (var out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static String resource(String path) {
        try (InputStream in = Console.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("The console's " + path + " is missing from the jar: rebuild app-runner");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
