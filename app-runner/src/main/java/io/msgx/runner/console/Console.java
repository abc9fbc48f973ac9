package io.msgx.runner.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.embed.PipelineStatus;
import io.msgx.runner.jobs.JobRunner;
import io.msgx.runner.operations.OperatorActions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The operations console: the pipeline at a glance in a browser, served under {@value #PREFIX} by the runner's own
 * HTTP side (same port, same token). Plain server-rendered HTML; one small script ({@code console.js}, from the
 * jar) refreshes the overview from {@code /console/api/overview} and nothing else.
 *
 * <table>
 *   <caption>Pages and actions</caption>
 *   <tr><td>{@code GET /console/}</td><td>overview: watermark and lag, hole, backlog, throughput, counts, role</td></tr>
 *   <tr><td>{@code GET /console/api/overview}</td><td>the overview as JSON</td></tr>
 *   <tr><td>{@code GET /console/message?id=|identity=}</td><td>one message: record, raw XML, replay</td></tr>
 *   <tr><td>{@code GET /console/flight?flid=|flno=&day=}</td><td>one flight: state, lists, MAFL, messages</td></tr>
 *   <tr><td>{@code GET /console/dead?class=}</td><td>DEAD messages, bulk replay of a whitelisted class</td></tr>
 *   <tr><td>{@code GET /console/events}</td><td>DEAD outbox events (D-67): resend, purge, rearm a flight's
 *   projection</td></tr>
 *   <tr><td>{@code GET /console/abandoned}</td><td>abandoned mailbox marks, reopen and reconcile</td></tr>
 *   <tr><td>{@code GET /console/reference[?type=[&key=]]}</td><td>reference data: types and counts, a type's
 *   records, one record's document (sis-format §6, D-58)</td></tr>
 *   <tr><td>{@code POST /console/replay|replay-class|reopen|reconcile|events/resend|events/purge|events/rearm}</td>
 *   <td>the actions, audited</td></tr>
 *   <tr><td>{@code GET|POST /console/login}, {@code POST /console/logout}</td><td>the session ({@link ConsoleAuth})</td></tr>
 * </table>
 *
 * Without a configured {@code msgx.http.token} every page answers 403: the console is off, never open.
 */
public final class Console implements HttpHandler, AutoCloseable {

    public static final String PREFIX = "/console";

    private static final Logger log = LoggerFactory.getLogger(Console.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LIST_LIMIT = 500;

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    /** What a replay does and does not restore (CLM-3), shown wherever a replay can be asked for. */
    static final String REPLAY_EXPLAINED = "Replay moves the message back to PENDING: attempts, next attempt and error"
            + " are reset; its business identity is kept, so it is not taken for a duplicate of itself; it is processed"
            + " again in its mailbox-ID place among the messages still open. It does NOT restore history order (CLM-3):"
            + " messages after it may already have been applied, and it will overwrite what they set wherever it"
            + " carries the same fields. Versions protect consumers (nothing older replaces newer downstream), not the"
            + " flight state. It does not withdraw anything already published, and it cannot bring back a raw message"
            + " the mailbox has purged (only the replay channel's copy, when configured). Look at the flights it touches"
            + " before you replay it.";

    private final MsgExchange exchange;
    private final ConsoleAuth auth;
    private final OperatorActions actions;
    private final Throughput throughput;
    private final Map<String, byte[]> statics = new LinkedHashMap<>();
    private final ScheduledExecutorService sampler;

    /**
     * @param exchange the pipeline shown
     * @param token    the HTTP side's operator token ({@code msgx.http.token}); null turns the console off (403)
     */
    public Console(MsgExchange exchange, String token) {
        this.exchange = exchange;
        this.auth = new ConsoleAuth(token, exchange.clock());
        this.actions = new OperatorActions(exchange);
        this.throughput = new Throughput(exchange.meterRegistry(), exchange.clock());
        for (var name : List.of("console.css", "console.js")) {
            statics.put(name, resource("/console/" + name));
        }
        this.sampler = Executors.newSingleThreadScheduledExecutor(JobRunner.daemonThread("console-sampler"));
        sampler.scheduleAtFixedRate(() -> {
            try {
                throughput.sample();
            } catch (RuntimeException e) {
                log.debug("Console throughput sample failed: {}", e.toString());
            }
        }, 0, 5, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }

    // ------------------------------------------------------------------------------------------------ routing

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try {
            var headers = ex.getResponseHeaders();
            headers.set("Content-Security-Policy", CSP);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("X-Frame-Options", "DENY");
            headers.set("Referrer-Policy", "same-origin");
            headers.set("Cache-Control", "no-store");
            route(ex);
        } catch (IOException e) {
            log.debug("{} {}: the connection failed while answering: {}", ex.getRequestMethod(),
                    ex.getRequestURI().getPath(), e.toString());
        } catch (RuntimeException e) {
            log.error("Console {} {} failed; answered 500", ex.getRequestMethod(), ex.getRequestURI().getPath(), e);
            try {
                sendPage(ex, 500, "Error", null, "<p>The console failed to answer; see the service log.</p>");
            } catch (IOException | RuntimeException ignored) {
                // the headers went out already, or the client left
            }
        } finally {
            ex.close();
        }
    }

    private void route(HttpExchange ex) throws IOException {
        var path = ex.getRequestURI().getPath();
        var method = ex.getRequestMethod();
        boolean get = "GET".equals(method) || "HEAD".equals(method);
        boolean post = "POST".equals(method);
        if (path.startsWith(PREFIX + "/static/")) {
            serveStatic(ex, path.substring((PREFIX + "/static/").length()));
            return;
        }
        if (!auth.enabled()) {
            sendPage(ex, 403, "Console off", null, "<p>The console is off: no operator token is configured."
                    + " Set <code>msgx.http.token</code> (it also guards the compatibility entry) and restart.</p>");
            return;
        }
        if (path.equals(PREFIX + "/login")) {
            if (get) {
                sendPage(ex, 200, "Log in", null, loginForm(Form.parse(ex.getRequestURI().getRawQuery()).get("next"), null));
            } else if (post) {
                login(ex);
            } else {
                methodNotAllowed(ex, "GET, POST");
            }
            return;
        }
        var caller = auth.caller(ex);
        if (caller.isEmpty()) {
            if (get && !path.startsWith(PREFIX + "/api/")) {
                var query = ex.getRequestURI().getRawQuery();
                var next = path + (query == null ? "" : "?" + query);
                ex.getResponseHeaders().set("Location", PREFIX + "/login?next=" + Html.url(next));
                sendPage(ex, 303, "Log in", null, "<p><a href=\"/console/login\">Log in</a> first.</p>");
            } else {
                if (post) {
                    log.info("AUDIT console {} {} refused: no valid session or token (from {})", method, path, remote(ex));
                }
                ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"msgx-console\"");
                sendPage(ex, 401, "Not logged in", null, "<p>This needs the operator token: <a href=\"/console/login\">"
                        + "log in</a>, or send <code>Authorization: Bearer</code>.</p>");
            }
            return;
        }
        var who = caller.get();
        if (get) {
            var query = Form.parse(ex.getRequestURI().getRawQuery());
            switch (path) {
                case PREFIX, PREFIX + "/" -> sendPage(ex, 200, "Overview", who, overviewPage());
                case PREFIX + "/api/overview" -> send(ex, 200, "application/json; charset=utf-8",
                        JSON.writeValueAsString(overview()));
                case PREFIX + "/message" -> messagePage(ex, who, query);
                case PREFIX + "/flight" -> flightPage(ex, who, query);
                case PREFIX + "/dead" -> sendPage(ex, 200, "DEAD messages", who, deadPage(who, query.get("class")));
                case PREFIX + "/abandoned" -> sendPage(ex, 200, "Abandoned mailbox marks", who, abandonedPage(who));
                case PREFIX + "/events" -> sendPage(ex, 200, "DEAD events", who, deadEventsPage(who));
                case PREFIX + "/reference" -> referencePage(ex, who, query);
                default -> sendPage(ex, 404, "Not found", who, "<p>No such page.</p>");
            }
            return;
        }
        if (!post) {
            methodNotAllowed(ex, "GET");
            return;
        }
        var form = Form.read(ex.getRequestBody());
        if (form == null) {
            sendPage(ex, 413, "Too large", who, "<p>The form is larger than the console reads.</p>");
            return;
        }
        if (!auth.mayAct(ex, who, form.get("csrf"))) {
            log.info("AUDIT console {} refused for {} (from {}): not from the console's own origin or without its"
                    + " form token", path, who.operator(), remote(ex));
            sendPage(ex, 403, "Refused", who, "<p>Refused: an action must be posted from the console's own pages"
                    + " (same origin, with the page's form token). Nothing was changed.</p>");
            return;
        }
        try {
            switch (path) {
                case PREFIX + "/logout" -> logout(ex, who);
                case PREFIX + "/replay" -> replay(ex, who, form);
                case PREFIX + "/replay-class" -> replayClass(ex, who, form);
                case PREFIX + "/reopen" -> reopen(ex, who, form);
                case PREFIX + "/reconcile" -> reconcile(ex, who, form);
                case PREFIX + "/events/resend" -> resendEvents(ex, who, form);
                case PREFIX + "/events/purge" -> purgeEvents(ex, who, form);
                case PREFIX + "/events/rearm" -> rearmProjection(ex, who, form);
                default -> sendPage(ex, 404, "Not found", who, "<p>No such action.</p>");
            }
        } catch (IllegalArgumentException e) {
            sendPage(ex, 400, "Not done", who, "<p>" + Html.esc(e.getMessage()) + ". Nothing was changed.</p>");
        }
    }

    // ------------------------------------------------------------------------------------------------ session

    private void login(HttpExchange ex) throws IOException {
        var form = Form.read(ex.getRequestBody());
        if (form == null || !ConsoleAuth.sameOrigin(ex)) {
            sendPage(ex, 403, "Log in", null, loginForm(null, "Refused: log in from the console's own page."));
            return;
        }
        var operator = ConsoleAuth.operatorName(form.get("operator"));
        var next = form.get("next");
        if (operator == null) {
            sendPage(ex, 400, "Log in", null, loginForm(next, "Give your name: every action is logged with it."));
            return;
        }
        if (!auth.tokenMatches(form.get("token"))) {
            log.warn("AUDIT console login refused for '{}' from {}: wrong token", operator, remote(ex));
            sendPage(ex, 401, "Log in", null, loginForm(next, "Wrong token."));
            return;
        }
        ex.getResponseHeaders().add("Set-Cookie", auth.open(operator));
        log.info("AUDIT console login by {} from {}", operator, remote(ex));
        ex.getResponseHeaders().set("Location", safeNext(next));
        sendPage(ex, 303, "Logged in", null, "<p><a href=\"/console/\">Continue</a></p>");
    }

    /** Only a path inside the console: never another site (no open redirect). */
    static String safeNext(String next) {
        if (next == null || !next.startsWith(PREFIX + "/") || next.startsWith("//") || next.contains("\\")
                || next.chars().anyMatch(Character::isISOControl)) {
            return PREFIX + "/";
        }
        return next;
    }

    private void logout(HttpExchange ex, ConsoleAuth.Caller who) throws IOException {
        ex.getResponseHeaders().add("Set-Cookie", auth.close(who));
        log.info("AUDIT console logout by {} from {}", who.operator(), remote(ex));
        ex.getResponseHeaders().set("Location", PREFIX + "/login");
        sendPage(ex, 303, "Logged out", null, "<p><a href=\"/console/login\">Log in</a></p>");
    }

    private static String loginForm(String next, String problem) {
        var html = new Html();
        if (problem != null) {
            html.raw("<p class=\"problem\">").text(problem).raw("</p>");
        }
        html.raw("<form class=\"login\" method=\"post\" action=\"/console/login\">")
                .raw("<label>Your name <input name=\"operator\" autocomplete=\"username\" required maxlength=\"64\"></label>")
                .raw("<label>Operator token <input name=\"token\" type=\"password\" autocomplete=\"current-password\" required></label>")
                .raw("<input type=\"hidden\" name=\"next\" value=\"").text(safeNext(next)).raw("\">")
                .raw("<button type=\"submit\">Log in</button></form>")
                .raw("<p class=\"note\">The token is the HTTP side's <code>msgx.http.token</code>. It is checked once;"
                        + " the browser then keeps only an HttpOnly session cookie for this console (8 h at most).</p>");
        return html.toString();
    }

    // ------------------------------------------------------------------------------------------------ overview

    /** Everything the overview shows: {@code display} (texts by key), {@code warn} (keys to flag), {@code throughput}. */
    Map<String, Object> overview() {
        throughput.sample();
        var now = exchange.clock().instant();
        var status = exchange.status();
        var maxCommitDelay = exchange.config().inbox().maxCommitDelay();
        Long maxId = null;
        String mailboxProblem = null;
        try {
            var max = exchange.mailbox().maxId();
            maxId = max.isPresent() ? max.getAsLong() : null;
        } catch (RuntimeException e) {
            mailboxProblem = "mailbox unreachable";
        }
        Long lag = maxId == null ? null : Math.max(0, maxId - status.watermark());
        var holeAge = status.holeSince() == null ? null : Duration.between(status.holeSince(), now);
        var display = new LinkedHashMap<String, String>();
        var warn = new LinkedHashMap<String, Boolean>();
        var head = status.head();
        display.put("head", head == null ? "none: nothing open" : head.summary());
        display.put("headError", head == null || head.lastError() == null ? "–" : head.lastError());
        display.put("role", Boolean.TRUE.equals(status.active()) ? "active" : "standby");
        display.put("watermark", Long.toString(status.watermark()));
        display.put("lag", lag == null ? (mailboxProblem == null ? "0" : mailboxProblem) : lag.toString());
        display.put("maxId", maxId == null ? "–" : maxId.toString());
        display.put("hole", holeAge == null ? "none" : "at " + (status.watermark() + 1) + " for " + Html.age(holeAge));
        display.put("maxCommitDelay", Html.age(maxCommitDelay));
        display.put("backlog", Long.toString(status.backlog()));
        display.put("oldest", status.backlog() == 0 ? "–" : Html.age(Duration.ofSeconds(status.oldestUnprocessedSeconds())));
        display.put("failed", Long.toString(status.failed()));
        display.put("dead", Long.toString(status.dead()));
        display.put("pendingEvents", Long.toString(status.pendingEvents()));
        display.put("deadEvents", Long.toString(status.deadEvents()));
        display.put("owedBackfills", Long.toString(status.owedBackfills()));
        display.put("abandonedBackfills", Long.toString(status.abandonedBackfills()));
        var series = throughput.perMinute();
        long lastHour = 0;
        for (long n : series) {
            lastHour += n;
        }
        display.put("lastHour", Long.toString(lastHour));
        display.put("at", Html.time(now));
        warn.put("head", head != null && head.blocked());
        warn.put("headError", head != null && head.blocked());
        warn.put("lag", mailboxProblem != null);
        warn.put("hole", holeAge != null && holeAge.compareTo(maxCommitDelay) > 0);
        warn.put("dead", status.dead() > 0);
        warn.put("failed", status.failed() > 0);
        warn.put("deadEvents", status.deadEvents() > 0);
        warn.put("abandonedBackfills", status.abandonedBackfills() > 0);
        warn.put("role", !Boolean.TRUE.equals(status.active()));
        var result = new LinkedHashMap<String, Object>();
        result.put("display", display);
        result.put("warn", warn);
        result.put("throughput", series);
        result.put("watermark", status.watermark());
        result.put("holeSince", status.holeSince() == null ? null : status.holeSince().toString());
        result.put("backlog", status.backlog());
        result.put("oldestUnprocessedSeconds", status.oldestUnprocessedSeconds());
        result.put("failed", status.failed());
        result.put("dead", status.dead());
        result.put("pendingEvents", status.pendingEvents());
        result.put("deadEvents", status.deadEvents());
        result.put("abandonedBackfills", status.abandonedBackfills());
        result.put("active", Boolean.TRUE.equals(status.active()));
        result.put("head", head == null ? null : PipelineStatus.headFields(head));
        return result;
    }

    @SuppressWarnings("unchecked")
    private String overviewPage() {
        var data = overview();
        var display = (Map<String, String>) data.get("display");
        var warn = (Map<String, Boolean>) data.get("warn");
        var html = new Html();
        html.raw("<p class=\"note\">Refreshes every 5 s · as of <span data-k=\"at\">").text(display.get("at"))
                .raw("</span></p><section class=\"cards\" id=\"overview\">");
        card(html, display, warn, "head", "FIFO head", "the smallest open message: kind, state, and what holds it");
        card(html, display, warn, "headError", "Head's last error", "why its last attempt failed");
        card(html, display, warn, "role", "Role", "this instance: active holds the lease; standby waits");
        card(html, display, warn, "watermark", "Watermark", "every mailbox ID up to here is enqueued");
        card(html, display, warn, "lag", "Watermark lag", "IDs between the watermark and the mailbox's highest");
        card(html, display, warn, "hole", "Hole", "a gap after the watermark and its age");
        card(html, display, warn, "maxCommitDelay", "max-commit-delay", "how long a gap may stay open");
        card(html, display, warn, "backlog", "Backlog", "open messages (PENDING + FAILED)");
        card(html, display, warn, "oldest", "Oldest open", "age of the oldest open message");
        card(html, display, warn, "failed", "FAILED", "waiting for a retry");
        card(html, display, warn, "dead", "DEAD", "need an operator");
        card(html, display, warn, "pendingEvents", "Pending events", "outbox rows not yet delivered");
        card(html, display, warn, "deadEvents", "Dead events", "outbox rows parked as dead letters");
        card(html, display, warn, "owedBackfills", "Marks owed", "mailbox processed-marks still to write");
        card(html, display, warn, "abandonedBackfills", "Abandoned marks", "awaiting reopen or reconcile");
        html.raw("</section><section class=\"throughput\"><h2>Throughput, last hour: <span data-k=\"lastHour\">")
                .text(display.get("lastHour")).raw("</span> messages ended</h2>")
                .raw("<svg id=\"spark\" viewBox=\"0 0 600 80\" preserveAspectRatio=\"none\" role=\"img\""
                        + " aria-label=\"messages ended per minute, last 60 minutes\"><polyline points=\"")
                .raw(sparkPoints((long[]) data.get("throughput"))).raw("\"/></svg>")
                .raw("<p class=\"note\">Per minute, counted in memory by this instance since it started (the"
                        + " <code>msgx.pipeline.messages.ended</code> counters); a standby shows none.</p></section>");
        return html.toString();
    }

    private static void card(Html html, Map<String, String> display, Map<String, Boolean> warn, String key,
                             String label, String hint) {
        html.raw("<div class=\"card").raw(Boolean.TRUE.equals(warn.get(key)) ? " warn" : "")
                .raw("\" data-card=\"").raw(key).raw("\"><div class=\"label\">").text(label)
                .raw("</div><div class=\"value\" data-k=\"").raw(key).raw("\">").text(display.get(key))
                .raw("</div><div class=\"hint\">").text(hint).raw("</div></div>");
    }

    /** The sparkline's polyline on a 600×80 box; the same formula as console.js. */
    static String sparkPoints(long[] series) {
        long max = 1;
        for (long n : series) {
            max = Math.max(max, n);
        }
        var points = new StringBuilder();
        for (int i = 0; i < series.length; i++) {
            double x = series.length == 1 ? 0 : i * 600.0 / (series.length - 1);
            double y = 78 - series[i] * 74.0 / max;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        }
        return points.toString().strip();
    }

    // ------------------------------------------------------------------------------------------------ message

    /** A duplicate's reason: {@code duplicate-of:<holder>}, with {@code :content-differs} when its content differs. */
    private static final java.util.regex.Pattern DUPLICATE_OF =
            java.util.regex.Pattern.compile("duplicate-of:(\\d+)(:content-differs)?");

    private void messagePage(HttpExchange ex, ConsoleAuth.Caller who, Form query) throws IOException {
        var html = new Html();
        html.raw("<form class=\"lookup\" method=\"get\" action=\"/console/message\">")
                .raw("<label>Mailbox ID <input name=\"id\" inputmode=\"numeric\" value=\"").text(orEmpty(query.get("id")))
                .raw("\"></label><span>or</span><label>Business identity <input name=\"identity\" size=\"40\""
                        + " placeholder=\"SNDR|TYPE|STYP|SEQN\" value=\"").text(orEmpty(query.get("identity")))
                .raw("\"></label><button type=\"submit\">Show</button></form>");
        Optional<ProcRecord> found = Optional.empty();
        String problem = null;
        if (query.get("id") != null) {
            try {
                found = exchange.store().procStates().find(Long.parseLong(query.get("id")));
            } catch (NumberFormatException e) {
                problem = "Not a mailbox ID: " + query.get("id");
            }
            if (problem == null && found.isEmpty()) {
                problem = "Message " + query.get("id") + " is not enqueued (no PROC_STATE row).";
            }
        } else if (query.get("identity") != null) {
            found = exchange.store().procStates().findByIdentity(query.get("identity"));
            if (found.isEmpty()) {
                problem = "No message holds the identity " + query.get("identity") + ".";
            }
        }
        if (problem != null) {
            html.raw("<p class=\"problem\">").text(problem).raw("</p>");
        }
        if (found.isPresent()) {
            var r = found.get();
            html.raw("<h2>Message ").text(r.msgId()).raw(" <span class=\"state s-").text(r.status()).raw("\">")
                    .text(r.status()).raw("</span></h2><table class=\"kv\" id=\"record\">");
            html.row("state", r.status()).row("error class", r.errorClass()).row("error", r.lastError())
                    .row("attempts", r.attempts()).row("next attempt", Html.time(r.nextAttemptAt()))
                    .row("identity", r.identityKey()).row("received (mailbox clock)", Html.time(r.receivedAt()))
                    .row("enqueued", Html.time(r.enqueuedAt())).row("last update", Html.time(r.updatedAt()))
                    .row("mark owed from", Html.time(r.backfillNextAt())).row("mark confirmed", Html.time(r.backfillAt()))
                    .row("mark attempts", r.backfillAttempts())
                    .row("mark abandoned", Html.time(r.backfillAbandonedAt()))
                    .row("abandoned because", r.backfillAbandonedReason());
            html.raw("</table>");
            var duplicate = DUPLICATE_OF.matcher(r.lastError() == null ? "" : r.lastError());
            if (r.status() == ProcStatus.SKIPPED && duplicate.matches()) {
                html.raw("<p class=\"note").raw(duplicate.group(2) != null ? " warn\" id=\"content-differs\">" : "\">")
                        .raw("A duplicate of <a href=\"/console/message?id=").text(duplicate.group(1)).raw("\">message ")
                        .text(duplicate.group(1)).raw("</a>, which holds the same identity.");
                if (duplicate.group(2) != null) {
                    html.raw(" <strong>Its content differs</strong>: a corrected resend under the same SEQN is kept"
                            + " skipped (Q15, D-84). Compare the two texts; when the correction must reach the flight"
                            + " state, ask the AODB for the day's schedule again (<code>request schedule --day</code>).");
                }
                html.raw("</p>");
            }
            if (r.status() == ProcStatus.ARCHIVED) {
                html.raw("<p class=\"note\">Archived: only the dedup shadow is left here; the full record is in"
                        + " <code>PROC_STATE_HST</code>.</p>");
            }
            replayBlock(html, who, r);
            if (r.backfillAbandonedAt() != null) {
                html.raw("<h3>Abandoned mark</h3>");
                markActions(html, who, r.msgId());
            }
            rawBlock(html, r.msgId());
        }
        sendPage(ex, problem != null && found.isEmpty() ? 404 : 200, "Message", who, html.toString());
    }

    private void replayBlock(Html html, ConsoleAuth.Caller who, ProcRecord r) {
        if (r.status() != ProcStatus.DEAD && r.status() != ProcStatus.FAILED) {
            return;
        }
        var replayable = exchange.config().replayable();
        html.raw("<h3>Replay</h3>");
        if (r.errorClass() == null || !replayable.contains(r.errorClass())) {
            html.raw("<p class=\"note\" id=\"not-replayable\">Not replayable: error class ").text(r.errorClass())
                    .raw(" is outside <code>msgx.replay.error-classes</code> ").text(replayable)
                    .raw(". The bytes of a malformed message never change; fix the cause at the sender.</p>");
            return;
        }
        html.raw("<form class=\"action confirm\" id=\"replay\" method=\"post\" action=\"/console/replay\">");
        csrf(html, who);
        html.raw("<input type=\"hidden\" name=\"ids\" value=\"").text(r.msgId()).raw("\">")
                .raw("<p class=\"explain\">").text(REPLAY_EXPLAINED).raw("</p>")
                .raw("<label class=\"confirm\"><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required>"
                        + " I have checked what this message will overwrite</label>")
                .raw("<button type=\"submit\">Replay message ").text(r.msgId()).raw("</button></form>");
    }

    private void rawBlock(Html html, long msgId) {
        String raw = null;
        String source = "the mailbox (CMINMSGS)";
        try {
            raw = exchange.mailbox().readText(msgId).orElse(null);
        } catch (RuntimeException e) {
            source = "the mailbox is unreachable (" + e.getClass().getSimpleName() + ")";
        }
        if (raw == null) {
            try {
                var copy = exchange.store().rawCopies().find(msgId);
                if (copy.isPresent()) {
                    raw = copy.get();
                    source = "the replay channel's copy";
                }
            } catch (RuntimeException e) {
                // no replay channel on this store: nothing more to show
            }
        }
        html.raw("<h3>Raw XML <span class=\"note\">from ").text(source).raw("</span></h3>");
        if (raw == null) {
            html.raw("<p class=\"note\">The raw text is gone (purged from the mailbox, no copy kept).</p>");
        } else {
            unmappedBlock(html, raw);
            html.raw("<pre class=\"xml\" id=\"raw\">").text(XmlPretty.indent(raw)).raw("</pre>");
        }
    }

    /** What the message carries that the model does not map (D-65): its values are only in the raw XML below. */
    private void unmappedBlock(Html html, String raw) {
        var unmapped = exchange.codec().unmappedIn(raw);
        if (unmapped.isEmpty()) {
            return;
        }
        html.raw("<h3>Not mapped</h3><p class=\"note\">The message carries these elements or attributes, which the"
                + " model does not keep: they are not in the flight state, <code>REF_MASTER</code> or on Kafka, only in"
                + " the raw XML below (counted in <code>msgx.codec.unmapped</code>).</p><ul id=\"unmapped\">");
        unmapped.forEach(path -> html.raw("<li><code>").text(path).raw("</code></li>"));
        html.raw("</ul>");
    }

    // ------------------------------------------------------------------------------------------------ reference

    /** Records listed on a type's page at most. */
    static final int REFERENCE_PAGE_LIMIT = 500;

    private void referencePage(HttpExchange ex, ConsoleAuth.Caller who, Form query) throws IOException {
        var references = exchange.store().referenceData();
        var type = query.get("type");
        var key = query.get("key");
        var html = new Html();
        if (type == null) {
            var counts = references.countsByType();
            html.raw("<h2>Reference types</h2>");
            if (counts.isEmpty()) {
                html.raw("<p class=\"note\">No reference data received yet.</p>");
            } else {
                html.raw("<table class=\"list\" id=\"reference-types\"><tr><th>type</th><th>records</th></tr>");
                counts.forEach((name, count) -> html.raw("<tr><td><a href=\"/console/reference?type=")
                        .text(Html.url(name)).raw("\">").text(name).raw("</a></td><td>").text(count).raw("</td></tr>"));
                html.raw("</table>");
            }
            sendPage(ex, 200, "Reference data", who, html.toString());
            return;
        }
        if (key == null) {
            var entries = references.all(type, REFERENCE_PAGE_LIMIT);
            html.raw("<h2>Reference type ").text(type).raw("</h2>");
            if (entries.isEmpty()) {
                html.raw("<p class=\"problem\">No ").text(type).raw(" records (the type is case-sensitive).</p>");
                sendPage(ex, 404, "Reference data", who, html.toString());
                return;
            }
            if (entries.size() == REFERENCE_PAGE_LIMIT) {
                html.raw("<p class=\"note\">The first ").text(REFERENCE_PAGE_LIMIT).raw(" records by key.</p>");
            }
            html.raw("<table class=\"list\" id=\"reference-records\"><tr><th>key</th><th>record</th><th>written by</th>"
                    + "<th>updated</th></tr>");
            for (var entry : entries) {
                html.raw("<tr><td><a href=\"/console/reference?type=").text(Html.url(type)).raw("&amp;key=")
                        .text(Html.url(entry.key())).raw("\">").text(entry.key()).raw("</a></td><td class=\"doc\">")
                        .text(entry.document().json()).raw("</td><td>").raw(messageLink(entry.msgId())).raw("</td><td>")
                        .text(Html.time(entry.updatedAt())).raw("</td></tr>");
            }
            html.raw("</table>");
            sendPage(ex, 200, "Reference data", who, html.toString());
            return;
        }
        var entry = references.find(type, key);
        if (entry.isEmpty()) {
            html.raw("<p class=\"problem\">No ").text(type).raw(" record with key ").text(key)
                    .raw(" (type and key are case-sensitive).</p>");
            sendPage(ex, 404, "Reference data", who, html.toString());
            return;
        }
        html.raw("<h2>").text(type).raw(" ").text(key).raw("</h2><table class=\"kv\" id=\"reference\">")
                .row("type", type).row("key", key);
        html.raw("<tr><th>written by</th><td>").raw(messageLink(entry.get().msgId())).raw("</td></tr>")
                .row("updated", Html.time(entry.get().updatedAt()));
        html.raw("</table><pre class=\"json\" id=\"document\">")
                .text(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(entry.get().document().node()))
                .raw("</pre><p><a href=\"/console/reference?type=").text(Html.url(type)).raw("\">All ").text(type)
                .raw(" records</a></p>");
        sendPage(ex, 200, "Reference data", who, html.toString());
    }

    // ------------------------------------------------------------------------------------------------ flight

    private void flightPage(HttpExchange ex, ConsoleAuth.Caller who, Form query) throws IOException {
        var html = new Html();
        html.raw("<form class=\"lookup\" method=\"get\" action=\"/console/flight\">")
                .raw("<label>FLID <input name=\"flid\" value=\"").text(orEmpty(query.get("flid")))
                .raw("\"></label><span>or</span><label>Flight number <input name=\"flno\" placeholder=\"CA1405\" value=\"")
                .text(orEmpty(query.get("flno"))).raw("\"></label><label>Operation day <input name=\"day\" type=\"date\" value=\"")
                .text(orEmpty(query.get("day"))).raw("\"></label><button type=\"submit\">Show</button></form>");
        FlightId flid = null;
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
                var matches = exchange.store().inTransaction(tx -> tx.flights().findByFlightNumber(flno, day));
                if (matches.size() == 1) {
                    flid = matches.get(0);
                } else if (matches.isEmpty()) {
                    problem = "No flight " + flno + (day == null ? "" : " on " + day) + ".";
                } else {
                    html.raw("<p>Several flights match; pick one:</p><ul class=\"matches\">");
                    for (var match : matches) {
                        html.raw("<li><a href=\"/console/flight?flid=").text(Html.url(match.value())).raw("\">")
                                .text(match.value()).raw("</a></li>");
                    }
                    html.raw("</ul>");
                }
            } catch (DateTimeParseException e) {
                problem = "Not a day (yyyy-MM-dd): " + query.get("day");
            }
        }
        boolean missing = false;
        if (flid != null) {
            var view = actions.flight(flid);
            if (view.isEmpty()) {
                problem = "No flight " + flid.value() + " in the current state (it may have moved to FLIGHT_HST).";
                missing = true;
            } else {
                flightBody(html, view.get());
            }
        }
        if (problem != null) {
            html.raw("<p class=\"problem\">").text(problem).raw("</p>");
        }
        sendPage(ex, missing ? 404 : 200, "Flight", who, html.toString());
    }

    private void flightBody(Html html, OperatorActions.FlightView view) {
        var f = view.flight();
        html.raw("<h2>Flight ").text(f.flid().value()).raw(" <span class=\"state s-").text(f.status()).raw("\">")
                .text(f.status()).raw("</span></h2><table class=\"kv\" id=\"flight\">")
                .row("version", f.stateVersion()).row("operation day", f.operationDay() == null ? null : f.operationDay().date());
        html.raw("<tr><th>last change by</th><td>").raw(messageLink(f.lastMsgId())).raw("</td></tr>");
        var master = f.masterId();
        html.raw("<tr><th>master (MAID)</th><td>");
        if (master.isPresent()) {
            html.raw("<a class=\"master\" href=\"/console/flight?flid=").text(Html.url(master.get().value())).raw("\">")
                    .text(master.get().value()).raw("</a>");
        } else {
            html.text(null);
        }
        html.raw("</td></tr><tr><th>MAFL (code-shares)</th><td id=\"mafl\">");
        if (view.mafl() == null || view.mafl().isEmpty()) {
            html.text(view.mafl() == null ? "– (a child carries none)" : "none");
        } else {
            for (var entry : view.mafl()) {
                html.raw("<a href=\"/console/flight?flid=").text(Html.url(entry.flid().value())).raw("\">")
                        .text(entry.flid().value()).raw("</a> ").text(entry.flno()).raw("<br>");
            }
        }
        html.raw("</td></tr></table><h3>Fields</h3><table class=\"kv\" id=\"fields\">");
        f.fields().asMap().forEach((field, value) -> html.row(field.code(), value));
        html.raw("</table>");
        for (var entry : f.lists().asMap().entrySet()) {
            var list = entry.getKey();
            if (entry.getValue().isEmpty()) {
                continue;
            }
            html.raw("<h3>").text(list.code()).raw("</h3><table class=\"grid list\" data-list=\"").text(list.code())
                    .raw("\"><tr><th>#</th><th>").text(list.sequenceAttribute()).raw("</th>");
            list.itemFields().forEach(c -> html.raw("<th>").text(c).raw("</th>"));
            html.raw("</tr>");
            int ordinal = 0;
            for (var item : entry.getValue()) {
                html.raw("<tr><td>").text(++ordinal).raw("</td><td>").text(item.sourceSeq()).raw("</td>");
                list.itemFields().forEach(c -> html.raw("<td>").text(item.get(c)).raw("</td>"));
                html.raw("</tr>");
            }
            html.raw("</table>");
        }
        var changes = exchange.store().inTransaction(tx -> tx.outbox().notificationsOf(f.flid(), 100));
        html.raw("<h3>Messages that changed it</h3><p class=\"note\">Newest first, from the outbox's"
                + " <code>KAFKA:msg</code> notifications (one per version, each naming its message); delivered ones"
                + " are kept for <code>msgx.pipeline.event-retention</code>, so older changes may be gone.</p>")
                .raw("<table class=\"grid\" id=\"changes\"><tr><th>version</th><th>message</th><th>event</th>"
                        + "<th>created</th><th>delivery</th></tr>");
        for (var change : changes) {
            var event = change.event();
            html.raw("<tr><td>").text(event.stateVersion()).raw("</td><td>").raw(messageLink(event.msgId()))
                    .raw("</td><td>").text(event.eventType()).raw("</td><td>").text(Html.time(event.createdAt()))
                    .raw("</td><td>").text(change.status()).raw("</td></tr>");
        }
        html.raw("</table>");
    }

    private static String messageLink(long msgId) {
        if (msgId <= 0) {
            return Html.esc(msgId + " (lifecycle)");
        }
        return "<a href=\"/console/message?id=" + msgId + "\">" + msgId + "</a>";
    }

    // ------------------------------------------------------------------------------------------------ lists

    private String deadPage(ConsoleAuth.Caller who, String classFilter) {
        ErrorClass filter = null;
        if (classFilter != null) {
            try {
                filter = ErrorClass.valueOf(classFilter.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                return "<p class=\"problem\">No error class " + Html.esc(classFilter) + ".</p>";
            }
        }
        var dead = exchange.store().procStates().withStatus(ProcStatus.DEAD, LIST_LIMIT);
        var counts = new LinkedHashMap<ErrorClass, Integer>();
        dead.forEach(r -> counts.merge(r.errorClass(), 1, Integer::sum));
        var html = new Html();
        html.raw("<p class=\"filters\">Error class: <a href=\"/console/dead\">all (").text(dead.size()).raw(")</a>");
        counts.forEach((c, n) -> html.raw(" <a href=\"/console/dead?class=").text(c).raw("\">").text(c)
                .raw(" (").text(n).raw(")</a>"));
        html.raw("</p>");
        var replayable = exchange.config().replayable();
        if (filter != null && counts.containsKey(filter)) {
            if (replayable.contains(filter)) {
                html.raw("<form class=\"action confirm\" id=\"replay-class\" method=\"post\" action=\"/console/replay-class\">");
                csrf(html, who);
                html.raw("<input type=\"hidden\" name=\"class\" value=\"").text(filter).raw("\">")
                        .raw("<p class=\"explain\">").text(REPLAY_EXPLAINED).raw("</p>")
                        .raw("<label class=\"confirm\"><input type=\"checkbox\" name=\"confirm\" value=\"yes\" required>"
                                + " I have checked what these messages will overwrite</label>")
                        .raw("<button type=\"submit\">Replay all ").text(counts.get(filter)).raw(" DEAD ").text(filter)
                        .raw(" messages</button></form>");
            } else {
                html.raw("<p class=\"note\">").text(filter).raw(" is not replayable (outside msgx.replay.error-classes ")
                        .text(replayable).raw(").</p>");
            }
        }
        html.raw("<table class=\"grid\" id=\"dead\"><tr><th>message</th><th>error class</th><th>error</th>"
                + "<th>attempts</th><th>died</th></tr>");
        for (var r : dead) {
            if (filter != null && r.errorClass() != filter) {
                continue;
            }
            html.raw("<tr><td>").raw(messageLink(r.msgId())).raw("</td><td>").text(r.errorClass()).raw("</td><td class=\"err\">")
                    .text(r.lastError()).raw("</td><td>").text(r.attempts()).raw("</td><td>").text(Html.time(r.updatedAt()))
                    .raw("</td></tr>");
        }
        html.raw("</table>");
        if (dead.size() >= LIST_LIMIT) {
            html.raw("<p class=\"note\">The oldest ").text(LIST_LIMIT).raw(" are listed.</p>");
        }
        return html.toString();
    }

    private String abandonedPage(ConsoleAuth.Caller who) {
        var marks = exchange.store().procStates().abandonedMarks(LIST_LIMIT);
        var html = new Html();
        html.raw("<p class=\"note\">An abandoned mark is not a mark: the mailbox row carries no processed time, so the"
                + " AODB side may not purge it. <b>Reopen</b> makes the mark due again at once (the backfill job retries"
                + " it); <b>reconcile</b> records that you settled the row by hand (checked or purged it on the mailbox"
                + " side), with your name and note, which lets the record be archived.</p>")
                .raw("<table class=\"grid\" id=\"abandoned\"><tr><th>message</th><th>state</th><th>reason</th>"
                        + "<th>abandoned</th><th>reconciled</th><th>actions</th></tr>");
        for (var mark : marks) {
            var r = mark.record();
            html.raw("<tr data-msg=\"").text(r.msgId()).raw("\"><td>").raw(messageLink(r.msgId())).raw("</td><td>")
                    .text(r.status()).raw("</td><td>").text(r.backfillAbandonedReason()).raw("</td><td>")
                    .text(Html.time(r.backfillAbandonedAt())).raw("</td><td>");
            if (mark.reconciledAt() == null) {
                html.text("not reconciled");
            } else {
                html.text("by " + mark.reconciledBy() + " at " + Html.time(mark.reconciledAt()) + ": " + mark.note());
            }
            html.raw("</td><td>");
            markActions(html, who, r.msgId());
            html.raw("</td></tr>");
        }
        html.raw("</table>");
        if (marks.isEmpty()) {
            html.raw("<p>None.</p>");
        }
        return html.toString();
    }

    /**
     * The events' dead-letter queue (D-67): each DEAD outbox row with a resend and a purge button, a resend of all, and
     * a form that sends a flight's full state again.
     */
    private String deadEventsPage(ConsoleAuth.Caller who) {
        var dead = actions.deadEvents(LIST_LIMIT);
        var html = new Html();
        html.raw("<p class=\"note\">Outbox events the broker refused on every attempt (a broker outage uses none,"
                + " D-66). <b>Resend</b> makes an event PENDING again with its attempts reset; it keeps its EVENT_ID, so"
                + " among its flight's pending notifications it goes in that order. <b>Purge</b> deletes it for good."
                + " DEAD <em>messages</em> are on <a href=\"/console/dead\">DEAD</a>.</p>");
        if (!dead.isEmpty()) {
            html.raw("<form class=\"action\" id=\"events-resend-all\" method=\"post\" action=\"/console/events/resend\">");
            csrf(html, who);
            html.raw("<input type=\"hidden\" name=\"all\" value=\"yes\"><button type=\"submit\">Resend all DEAD"
                    + " events</button></form>");
        }
        html.raw("<table class=\"grid\" id=\"dead-events\"><tr><th>event</th><th>target</th><th>key</th>"
                + "<th>version</th><th>attempts</th><th>died</th><th>error</th><th>actions</th></tr>");
        for (var event : dead) {
            html.raw("<tr data-event=\"").text(event.eventId()).raw("\"><td>").text(event.eventId()).raw("</td><td>")
                    .text(event.target().code()).raw("</td><td>");
            if (event.target() == io.msgx.pipeline.store.OutboxTarget.KAFKA_REF) {
                html.text(event.key());
            } else {
                html.raw("<a href=\"/console/flight?flid=").text(Html.url(event.key())).raw("\">").text(event.key())
                        .raw("</a>");
            }
            html.raw("</td><td>").text(event.version()).raw("</td><td>").text(event.attempts()).raw("</td><td>")
                    .text(Html.time(event.diedAt())).raw("</td><td class=\"err\">").text(event.lastError())
                    .raw("</td><td>");
            eventAction(html, who, "resend", "Resend", event.eventId());
            eventAction(html, who, "purge", "Purge", event.eventId());
            html.raw("</td></tr>");
        }
        html.raw("</table>");
        if (dead.isEmpty()) {
            html.raw("<p>None.</p>");
        } else if (dead.size() >= LIST_LIMIT) {
            html.raw("<p class=\"note\">The oldest ").text(LIST_LIMIT).raw(" are listed.</p>");
        }
        html.raw("<h3>Send a flight's full state again</h3>")
                .raw("<form class=\"action\" id=\"events-rearm\" method=\"post\" action=\"/console/events/rearm\">");
        csrf(html, who);
        html.raw("<input name=\"flid\" required maxlength=\"32\" placeholder=\"FLID\">"
                + "<button type=\"submit\">Rearm its projection</button></form>");
        return html.toString();
    }

    private static void eventAction(Html html, ConsoleAuth.Caller who, String action, String label, long eventId) {
        html.raw("<form class=\"action inline ").raw(action).raw("\" method=\"post\" action=\"/console/events/")
                .raw(action).raw("\">");
        csrf(html, who);
        html.raw("<input type=\"hidden\" name=\"ids\" value=\"").text(eventId).raw("\"><button type=\"submit\">")
                .raw(label).raw("</button></form>");
    }

    private void markActions(Html html, ConsoleAuth.Caller who, long msgId) {
        html.raw("<form class=\"action inline reopen\" method=\"post\" action=\"/console/reopen\">");
        csrf(html, who);
        html.raw("<input type=\"hidden\" name=\"ids\" value=\"").text(msgId).raw("\"><button type=\"submit\">Reopen</button></form>")
                .raw("<form class=\"action inline reconcile\" method=\"post\" action=\"/console/reconcile\">");
        csrf(html, who);
        html.raw("<input type=\"hidden\" name=\"id\" value=\"").text(msgId).raw("\">")
                .raw("<input name=\"note\" required maxlength=\"500\" placeholder=\"how it was settled\">")
                .raw("<button type=\"submit\">Reconcile</button></form>");
    }

    // ------------------------------------------------------------------------------------------------ actions

    private void replay(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        requireConfirmed(form);
        var ids = form.ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No message named");
        }
        var result = actions.replay(ids, who.operator(), channel(ex));
        sendPage(ex, 200, "Replay", who, replayResult(result));
    }

    private void replayClass(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        requireConfirmed(form);
        ErrorClass errorClass;
        try {
            errorClass = ErrorClass.valueOf(String.valueOf(form.get("class")).toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("No error class " + form.get("class"));
        }
        var result = actions.replayClass(errorClass, LIST_LIMIT, who.operator(), channel(ex));
        sendPage(ex, 200, "Replay", who, replayResult(result));
    }

    private static String replayResult(io.msgx.pipeline.lifecycle.ReplayService.Replay result) {
        var html = new Html();
        html.raw("<p id=\"result\">Back to PENDING: ");
        result.replayed().forEach(id -> html.raw(messageLink(id)).raw(" "));
        html.raw(result.replayed().isEmpty() ? "none" : "").raw("</p>");
        if (!result.refused().isEmpty()) {
            html.raw("<p class=\"problem\">Not replayed (not FAILED/DEAD, or a class outside the whitelist): ");
            result.refused().forEach(id -> html.raw(messageLink(id)).raw(" "));
            html.raw("</p>");
        }
        html.raw("<p class=\"note\">The pump takes them in mailbox-ID order; reload a message to see its new state.</p>");
        return html.toString();
    }

    private void reopen(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        var ids = form.ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No message named");
        }
        var reopened = actions.reopen(ids, who.operator(), channel(ex));
        var html = new Html().raw("<p id=\"result\">Reopened (due at once): ");
        reopened.forEach(id -> html.raw(messageLink(id)).raw(" "));
        html.raw(reopened.isEmpty() ? "none — no abandoned mark among " + Html.esc(ids) : "")
                .raw("</p><p><a href=\"/console/abandoned\">Back to the abandoned marks</a></p>");
        sendPage(ex, 200, "Reopen", who, html.toString());
    }

    private void reconcile(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        var ids = form.ids("id");
        var note = form.get("note");
        if (ids.size() != 1) {
            throw new IllegalArgumentException("Name exactly one message");
        }
        if (note == null || note.length() > 500) {
            throw new IllegalArgumentException("Say how the row was settled (a note of at most 500 characters)");
        }
        boolean done = actions.reconcile(ids.get(0), who.operator(), note, channel(ex));
        var html = new Html().raw("<p id=\"result\">")
                .text(done ? "Reconciled " + ids.get(0) + " by " + who.operator() + "." : "Message " + ids.get(0)
                        + " has no abandoned mark; nothing recorded.")
                .raw("</p><p><a href=\"/console/abandoned\">Back to the abandoned marks</a></p>");
        sendPage(ex, done ? 200 : 409, "Reconcile", who, html.toString());
    }

    private void resendEvents(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        OperatorActions.EventsChanged result;
        if ("yes".equals(form.get("all"))) {
            result = actions.resendAllEvents(who.operator(), channel(ex));
        } else {
            var ids = form.ids("ids");
            if (ids.isEmpty()) {
                throw new IllegalArgumentException("No event named");
            }
            result = actions.resendEvents(ids, who.operator(), channel(ex));
        }
        sendPage(ex, 200, "Resend", who, eventsResult("Back to PENDING", result));
    }

    private void purgeEvents(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        var ids = form.ids("ids");
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("No event named");
        }
        sendPage(ex, 200, "Purge", who, eventsResult("Deleted", actions.purgeEvents(ids, who.operator(), channel(ex))));
    }

    private void rearmProjection(HttpExchange ex, ConsoleAuth.Caller who, Form form) throws IOException {
        var flid = form.get("flid");
        if (flid == null || flid.isBlank()) {
            throw new IllegalArgumentException("Name a FLID");
        }
        var rearmed = actions.rearmProjection(FlightId.of(flid.strip()), who.operator(), channel(ex));
        var html = new Html().raw("<p id=\"result\">").text(rearmed
                .map(row -> "FLID " + flid.strip() + ": its full state (version " + row.event().stateVersion()
                        + ", event " + row.eventId() + ") goes out again.")
                .orElse("FLID " + flid.strip() + " has no delivered or DEAD projection row (none written, cleaned up, or"
                        + " pending already): nothing rearmed."))
                .raw("</p><p><a href=\"/console/events\">Back to the DEAD events</a></p>");
        sendPage(ex, rearmed.isPresent() ? 200 : 409, "Rearm", who, html.toString());
    }

    private static String eventsResult(String label, OperatorActions.EventsChanged result) {
        var html = new Html().raw("<p id=\"result\">").text(label).raw(": ")
                .text(result.changed().isEmpty() ? "none" : result.changed()).raw("</p>");
        if (!result.refused().isEmpty()) {
            html.raw("<p class=\"problem\">Not DEAD events, left alone: ").text(result.refused()).raw("</p>");
        }
        return html.raw("<p><a href=\"/console/events\">Back to the DEAD events</a></p>").toString();
    }

    private static void requireConfirmed(Form form) {
        if (!"yes".equals(form.get("confirm"))) {
            throw new IllegalArgumentException("Replay needs the confirmation that you checked what it overwrites");
        }
    }

    // ------------------------------------------------------------------------------------------------ plumbing

    private static String channel(HttpExchange ex) {
        return "console from " + remote(ex);
    }

    private static String remote(HttpExchange ex) {
        var address = ex.getRemoteAddress();
        return address == null || address.getAddress() == null ? "?" : address.getAddress().getHostAddress();
    }

    private static void csrf(Html html, ConsoleAuth.Caller who) {
        if (who.csrf() != null) {
            html.csrf(who.csrf());
        }
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private void serveStatic(HttpExchange ex, String name) throws IOException {
        var bytes = statics.get(name);
        if (bytes == null) {
            send(ex, 404, "text/plain; charset=utf-8", "no such file");
            return;
        }
        var type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
        sendBytes(ex, 200, type, bytes);
    }

    private static void methodNotAllowed(HttpExchange ex, String allow) throws IOException {
        ex.getResponseHeaders().set("Allow", allow);
        send(ex, 405, "text/plain; charset=utf-8", "use " + allow);
    }

    private static void sendPage(HttpExchange ex, int status, String title, ConsoleAuth.Caller who, String body)
            throws IOException {
        send(ex, status, "text/html; charset=utf-8", Html.page(title, who == null ? null : who.operator(),
                who == null ? null : who.csrf(), body));
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        sendBytes(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void sendBytes(HttpExchange ex, int status, String type, byte[] bytes) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        boolean head = "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, head || bytes.length == 0 ? -1 : bytes.length);
        if (!head && bytes.length > 0) {
            try (var out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static byte[] resource(String path) {
        try (InputStream in = Console.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("The console's " + path + " is missing from the jar: rebuild app-runner");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
