package io.msgx.runner.console;

import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, never a downloaded
 * driver) over a real pipeline: MariaDB mailbox → MsgExchange → PostgreSQL, the console served by the runner's HTTP
 * side. A small day of traffic with a malformed message and one of a type no processor handles (DEAD, EXHAUSTED),
 * then every page is opened and read, the actions are refused without the token, and a replay is done in the browser
 * after the fix is deployed. Screenshots of each page go to {@code target/console-screenshots}, or to the folder
 * named by {@code -Dmsgx.console.screenshots} (docs/console is refreshed that way).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    static final String CHROMIUM = "/usr/bin/chromium";
    static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    static final String TOKEN = "console-test-token";

    private final PgTestDatabase postgres = new PgTestDatabase();
    private final SisMessages sis = new SisMessages();
    private TestMailboxDatabase mariadb;
    private MsgExchange exchange;
    private HttpApi http;
    private WebDriver browser;
    private Path screenshots;

    private long plan;
    private long hostile;
    private long unsupported;
    private long missingRow;

    @BeforeAll
    void startPipelineAndBrowser() throws Exception {
        assumeTrue(new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute(),
                "the console's browser tests need Debian's chromium and chromium-driver: "
                        + "apt-get install -y chromium chromium-driver (.ci/run does)");
        postgres.beforeEach(null);
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        screenshots = Path.of(System.getProperty("msgx.console.screenshots", "target/console-screenshots"));
        Files.createDirectories(screenshots);

        // A morning's traffic: a master with two code-share children and gates, routes; operations; a duplicate;
        // an ignored type; a malformed message carrying markup; a type nobody processes (dies EXHAUSTED).
        var master = withList(withList(withList(patch("SODT", "11MAR240835", "FLNO", "CA1405", "ALCD", "CA",
                                "STND", "504", "ACFT", "A321", "TRML", "T3"),
                        FlightList.GTDT, item(1, "GATE", "G28", "GTYP", "D"), item(2, "GATE", "G30")),
                FlightList.ROUT, item(1, "APCD", "PEK", "SCAT", "11MAR241100")),
                FlightList.ERUT, item(1, "APCD", "CTU", "SCDT", "11MAR240835"));
        plan = deliver(sis.schedule(
                fltr("1001", master),
                fltr("1002", "11MAR240835", "FLNO", "MU3001", "MAID", "1001", "CSOP", "MU", "CSFT", "MU3001"),
                fltr("1003", "11MAR240835", "FLNO", "FM9001", "MAID", "1001", "CSOP", "FM", "CSFT", "FM9001"),
                fltr("2001", "11MAR242350", "FLNO", "HU7181")));
        deliver(sis.flop(FlopSubtype.GTDT, "1001", withList(patch(), FlightList.GTDT, item(1, "GATE", "G33"))));
        var stand = sis.flop(FlopSubtype.STND, "2001", patch("STND", "612"));
        deliver(stand);
        deliver(sis.flop(FlopSubtype.EOBT, "1001", patch("EOBT", "11MAR240820")));
        deliver(stand);
        deliver(sis.other("LDM", "ANY"));
        hostile = deliver("<MSG><META><SNDR>AODB</SNDR><TYPE>SCHD</TYPE></META><SCHD><FLTR FLID=\"1\">"
                + "<script>alert('xss')</script><img src=x onerror=alert(2)>");
        unsupported = deliver(sis.other("XFER", "ANY"));
        missingRow = deliver(sis.flop(FlopSubtype.TAOP, "2001", patch("TAOP", "HU")));

        start(Map.of());
        waitFor("the day to be processed", () -> {
            var status = exchange.status();
            return status.watermark() >= missingRow && status.backlog() == 0 ? status : null;
        });
        // One mark the backfill could not write: the AODB side deleted the row (MISSING_ROW, abandoned at once).
        try (var aodb = mariadb.connect(); Statement st = aodb.createStatement()) {
            st.executeUpdate("DELETE FROM CMINMSGS WHERE CMINMSGS_ID = " + missingRow);
        }
        try (var store = postgres.dataSource().getConnection(); Statement st = store.createStatement()) {
            st.executeUpdate("UPDATE proc_state SET backfill_at = NULL, backfill_next_at = NULL,"
                    + " backfill_abandoned_at = now(), backfill_abandoned_reason = 'MISSING_ROW' WHERE msg_id = " + missingRow);
        }

        var service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        var options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,1100", "--lang=en-US");
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    void stopEverything() throws Exception {
        try {
            if (browser != null) {
                browser.quit();
            }
            stop();
        } finally {
            if (mariadb != null) {
                mariadb.close();
            }
            postgres.afterEach(null);
        }
    }

    @Test
    @Order(1)
    void a_page_without_a_session_leads_to_the_login_and_the_wrong_token_is_refused() {
        browser.get(base() + "/console/flight?flid=1001");
        assertThat(browser.getCurrentUrl()).contains("/console/login");
        browser.findElement(By.name("secret")).sendKeys("guess");
        browser.findElement(By.cssSelector("form.login button")).click();
        assertThat(await(By.className("problem")).getText()).isEqualTo("Wrong secret.");
        assertThat(browser.getPageSource()).doesNotContain("CA1405");
    }

    @Test
    @Order(2)
    void the_overview_shows_the_running_pipeline_and_refreshes_itself() throws Exception {
        login("alice");
        browser.get(base() + "/console/");
        assertThat(value("role")).isEqualTo("active");
        assertThat(value("watermark")).isEqualTo(Long.toString(missingRow));
        assertThat(value("backlog")).isEqualTo("0");
        assertThat(value("dead")).isEqualTo("2");
        assertThat(value("abandonedBackfills")).isEqualTo("1");
        assertThat(value("lag")).isEqualTo("0");
        assertThat(value("hole")).isEqualTo("none");
        assertThat(value("lastHour")).as("the day's terminal messages, counted by this instance").isEqualTo("9");
        assertThat(browser.findElement(By.cssSelector("[data-card=dead]")).getAttribute("class")).contains("warn");
        assertThat(browser.findElements(By.cssSelector("#spark polyline"))).hasSize(1);

        // The script refreshes from /console/api/overview: a new message shows up without a reload.
        long late = deliver(sis.flop(FlopSubtype.STND, "1003", patch("STND", "221")));
        waitFor("the overview to show the new watermark",
                () -> value("watermark").equals(Long.toString(late)) ? true : null);
        screenshot("overview");
    }

    @Test
    @Order(3)
    void the_message_page_shows_the_record_and_the_escaped_raw_xml_and_no_replay_for_malformed() throws Exception {
        login("alice");
        browser.get(base() + "/console/message?id=" + hostile);
        assertThat(browser.findElement(By.cssSelector("h2")).getText()).contains("DEAD");
        assertThat(browser.findElement(By.id("record")).getText()).contains("MALFORMED");
        var raw = browser.findElement(By.id("raw")).getText();
        assertThat(raw).contains("<script>alert('xss')</script>").contains("<img src=x onerror=alert(2)>");
        assertThat(browser.findElements(By.tagName("img"))).as("the message's markup is text, not elements").isEmpty();
        assertThat(browser.findElements(By.tagName("script"))).hasSize(1);
        assertThatThrownBy(() -> browser.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        assertThat(browser.findElement(By.id("not-replayable")).getText()).contains("MALFORMED");
        assertThat(browser.findElements(By.id("replay"))).isEmpty();

        browser.get(base() + "/console/message?id=" + unsupported);
        assertThat(browser.findElement(By.id("record")).getText()).contains("EXHAUSTED");
        assertThat(browser.findElement(By.cssSelector("#replay .explain")).getText())
                .contains("does NOT restore history order").contains("CLM-3");
        screenshot("message");

        // The same record by its business identity.
        var identity = record(plan).identityKey();
        browser.get(base() + "/console/message?identity=" + Html.url(identity));
        assertThat(browser.findElement(By.cssSelector("h2")).getText()).contains("Message " + plan).contains("SUCCEEDED");
    }

    @Test
    @Order(4)
    void the_flight_page_shows_state_lists_mafl_and_the_messages_that_changed_it() throws Exception {
        login("alice");
        browser.get(base() + "/console/flight?flno=CA1405&day=2024-03-11");
        assertThat(browser.findElement(By.cssSelector("h2")).getText()).isEqualTo("Flight 1001 ACTIVE");
        assertThat(browser.findElement(By.id("flight")).getText()).contains("version 3").contains("2024-03-11");
        assertThat(browser.findElement(By.id("mafl")).getText()).contains("1002 MU3001").contains("1003 FM9001");
        assertThat(browser.findElement(By.id("fields")).getText()).contains("STND 504").contains("EOBT 11MAR240820");
        assertThat(browser.findElement(By.cssSelector("table[data-list=GTDT]")).getText()).contains("G33")
                .doesNotContain("G28");
        assertThat(browser.findElement(By.cssSelector("table[data-list=ROUT]")).getText()).contains("PEK");
        var changes = browser.findElements(By.cssSelector("#changes tr td:first-child")).stream()
                .map(e -> e.getText()).toList();
        assertThat(changes).as("newest first, one per version").containsExactly("3", "2", "1");
        screenshot("flight");

        browser.findElement(By.linkText("1002")).click();
        assertThat(await(By.cssSelector("a.master")).getText()).isEqualTo("1001");
    }

    @Test
    @Order(5)
    void the_dead_list_filters_by_class_and_offers_bulk_replay_only_for_a_whitelisted_class() throws Exception {
        login("alice");
        browser.get(base() + "/console/dead");
        assertThat(browser.findElements(By.cssSelector("#dead tr"))).hasSize(3);
        browser.findElement(By.partialLinkText("MALFORMED")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().contains("class=MALFORMED"));
        assertThat(browser.findElements(By.cssSelector("#dead tr"))).hasSize(2);
        assertThat(browser.findElements(By.id("replay-class"))).isEmpty();
        browser.get(base() + "/console/dead?class=EXHAUSTED");
        assertThat(browser.findElement(By.cssSelector("#replay-class button")).getText())
                .isEqualTo("Replay all 1 DEAD EXHAUSTED messages");
        browser.get(base() + "/console/dead");
        screenshot("dead");
    }

    @Test
    @Order(6)
    void an_action_without_the_token_or_from_another_origin_is_refused_and_changes_nothing() throws Exception {
        var client = HttpClient.newHttpClient();
        var form = "ids=" + unsupported + "&confirm=yes";
        var anonymous = client.send(HttpRequest.newBuilder(URI.create(base() + "/console/replay"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        var wrongBearer = client.send(HttpRequest.newBuilder(URI.create(base() + "/console/replay"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Authorization", "Bearer nope")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrongBearer.statusCode()).isEqualTo(401);

        // A logged-in browser's cookie, replayed by another site's form: wrong origin, no form token.
        login("alice");
        var cookie = browser.manage().getCookieNamed(ConsoleAuth.COOKIE);
        assertThat(cookie.isHttpOnly()).isTrue();
        assertThat(cookie.getSameSite()).isEqualTo("Strict");
        var forged = client.send(HttpRequest.newBuilder(URI.create(base() + "/console/replay"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", ConsoleAuth.COOKIE + "=" + cookie.getValue())
                .header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(forged.statusCode()).isEqualTo(403);
        var noFormToken = client.send(HttpRequest.newBuilder(URI.create(base() + "/console/replay"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", ConsoleAuth.COOKIE + "=" + cookie.getValue())
                .header("Origin", base())
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noFormToken.statusCode()).isEqualTo(403);
        var reads = client.send(HttpRequest.newBuilder(URI.create(base() + "/console/api/overview")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(reads.statusCode()).as("reads need the token too").isEqualTo(401);
        assertThat(reads.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(csp ->
                assertThat(csp).contains("script-src 'self'").contains("frame-ancestors 'none'"));

        assertThat(record(unsupported).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(unsupported).errorClass()).isEqualTo(ErrorClass.EXHAUSTED);
    }

    @Test
    @Order(7)
    void an_abandoned_mark_is_reconciled_in_the_browser() throws Exception {
        login("alice");
        browser.get(base() + "/console/abandoned");
        var row = browser.findElement(By.cssSelector("#abandoned tr[data-msg='" + missingRow + "']"));
        assertThat(row.getText()).contains("MISSING_ROW").contains("not reconciled");
        screenshot("abandoned");
        row.findElement(By.name("note")).sendKeys("row purged by AODB ops, checked with their DBA");
        row.findElement(By.cssSelector("form.reconcile button")).click();
        assertThat(await(By.id("result")).getText()).isEqualTo("Reconciled " + missingRow + " by alice.");
        var mark = exchange.store().backfillMarks().abandonedMarks(10).stream()
                .filter(m -> m.record().msgId() == missingRow).findFirst().orElseThrow();
        assertThat(mark.reconciledBy()).isEqualTo("alice");
        assertThat(mark.note()).isEqualTo("row purged by AODB ops, checked with their DBA");
    }

    @Test
    @Order(8)
    void after_the_fix_is_deployed_a_dead_message_is_replayed_in_the_browser_and_processed() throws Exception {
        // The fix: this build ignores XFER messages. Redeploy, then replay what died before it.
        stop();
        start(Map.of("msgx.pipeline.ignore", "LDM-*,REGN-*,RSTA-*,EROR-*,XFER-*"));
        waitFor("the restarted instance to become active", () -> exchange.isActive() ? true : null);
        login("bob");
        browser.get(base() + "/console/message?id=" + unsupported);
        var replay = browser.findElement(By.id("replay"));
        replay.findElement(By.cssSelector("button")).click();
        assertThat(record(unsupported).status()).as("not confirmed: the browser does not send it")
                .isEqualTo(ProcStatus.DEAD);
        replay = browser.findElement(By.id("replay"));
        replay.findElement(By.name("confirm")).click();
        replay.findElement(By.cssSelector("button")).click();
        assertThat(await(By.id("result")).getText()).isEqualTo("Back to PENDING: " + unsupported);

        var ended = waitFor("the replayed message to be processed", () -> {
            var r = record(unsupported);
            return r.status() != ProcStatus.PENDING && r.status() != ProcStatus.FAILED ? r : null;
        });
        assertThat(ended.status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(ended.lastError()).isEqualTo("ignored:XFER-*");
        browser.get(base() + "/console/message?id=" + unsupported);
        assertThat(browser.findElement(By.cssSelector("h2")).getText()).contains("SKIPPED");
        assertThat(browser.findElements(By.id("replay"))).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    @Test
    @Order(9)
    void the_reference_pages_show_types_records_and_one_records_escaped_document() throws Exception {
        long gates = deliver(ConsoleReferencePageTest.HOSTILE_GATES);
        waitFor("the gates to be applied", () -> exchange.store().queue().find(gates)
                .filter(r -> r.status() == ProcStatus.SUCCEEDED).orElse(null));
        login("alice");

        browser.get(base() + "/console/reference");
        assertThat(browser.findElement(By.id("reference-types")).getText()).contains("GLST 2");
        browser.findElement(By.linkText("GLST")).click();
        assertThat(await(By.id("reference-records")).getText()).contains("G17").contains("17号登机口");
        browser.findElement(By.linkText("G<1>")).click();
        assertThat(await(By.id("document")).getText()).contains("\"GTNM\" : \"<script>alert('x')</script>\"")
                .contains("\"@MVIN\" : \"A\"");
        assertThatThrownBy(() -> browser.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        screenshot("reference");
    }

    private void start(Map<String, String> extra) {
        var keys = new LinkedHashMap<String, String>();
        keys.put("msgx.store.url", PgTestDatabase.URL);
        keys.put("msgx.store.user", PgTestDatabase.USER);
        if (!PgTestDatabase.PASSWORD.isEmpty()) {
            keys.put("msgx.store.password", PgTestDatabase.PASSWORD);
        }
        keys.put("msgx.store.schema", postgres.schema());
        keys.put("msgx.mailbox.url", mariadb.url()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        keys.put("msgx.mailbox.user", TestMailboxDatabase.server().user());
        if (!TestMailboxDatabase.server().password().isEmpty()) {
            keys.put("msgx.mailbox.password", TestMailboxDatabase.server().password());
        }
        keys.put("msgx.kafka.enabled", "false");
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "200ms");
        keys.put("msgx.pipeline.retry.max-attempts", "2");
        keys.put("msgx.pipeline.retry.backoff", "1s");
        keys.put("msgx.http.port", "0");
        try {
            var credentials = java.nio.file.Files.createTempFile("msgx-credentials", ".txt");
            credentials.toFile().deleteOnExit();
            java.nio.file.Files.writeString(credentials, "alice operator " + io.msgx.runner.http.Credential.hashOf(
                    secretOf("alice")) + "\nbob operator " + io.msgx.runner.http.Credential.hashOf(secretOf("bob")) + "\n");
            keys.put("msgx.http.credentials-file", credentials.toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        keys.putAll(extra);
        exchange = MsgExchange.builder().config(keys).build();
        http = HttpApi.forExchange(exchange).start();
        exchange.start();
    }

    private void stop() {
        if (http != null) {
            http.close();
            http = null;
        }
        if (exchange != null) {
            exchange.close();
            exchange = null;
        }
    }

    private String base() {
        return "http://127.0.0.1:" + http.port();
    }

    /** Each operator's secret: their credential names them in the console, not anything typed. */
    private static String secretOf(String operator) {
        return TOKEN + "-" + operator;
    }

    private void login(String operator) {
        browser.get(base() + "/console/");
        if (!browser.getCurrentUrl().contains("/console/login")) {
            return;
        }
        browser.findElement(By.name("secret")).sendKeys(secretOf(operator));
        browser.findElement(By.cssSelector("form.login button")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.getCurrentUrl().contains("/console/login"));
        assertThat(browser.getCurrentUrl()).as(() -> "after logging in: " + browser.findElement(By.tagName("main")).getText())
                .endsWith("/console/");
    }

    /** The element, once the page that has it is there (a click's navigation may still be under way). */
    private WebElement await(By locator) {
        return new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(ExpectedConditions.presenceOfElementLocated(locator));
    }

    private String value(String key) {
        return browser.findElement(By.cssSelector("[data-k=" + key + "]")).getText();
    }

    private void screenshot(String name) throws Exception {
        // The whole page, not only the first screen: as tall as the page is (within reason), then back.
        long height = ((Number) ((JavascriptExecutor) browser)
                .executeScript("return document.documentElement.scrollHeight")).longValue();
        browser.manage().window().setSize(new Dimension(1280, (int) Math.min(2400, Math.max(700, height + 160))));
        var png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(screenshots.resolve(name + ".png"), png);
        browser.manage().window().setSize(new Dimension(1280, 1100));
    }

    private long deliver(String xml) throws Exception {
        try (var connection = mariadb.connect()) {
            return TestMailboxDatabase.insertInbound(connection, xml);
        }
    }

    private ProcRecord record(long id) {
        return exchange.store().queue().find(id).orElseThrow(() -> new AssertionError("message " + id + " not enqueued"));
    }

    private static <T> T waitFor(String what, java.util.function.Supplier<T> probe) throws InterruptedException {
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (Instant.now().isBefore(deadline)) {
            var value = probe.get();
            if (value != null) {
                return value;
            }
            Thread.sleep(150);
        }
        throw new AssertionError("waited 30 s for " + what);
    }
}
