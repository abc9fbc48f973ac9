package io.msgx.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Metrics and alerts that work as shipped (issue 23): a running exchange, fed a little of every kind of traffic, is
 * scraped on {@code /metrics}; every metric {@code docs/operations.md} lists must be there under exactly the listed
 * wire name (Micrometer's unit suffixes and {@code _total} included), and every metric that
 * {@code ops/prometheus/alerts.yml} and the Grafana dashboard use must be one the scrape proved. A renamed meter, a
 * doc that names the code's dotted name, or an alert on a metric that does not exist fails here, not at 3 a.m.
 */
@Slow
class DocumentedMetricsTest {

    private static final Path ROOT = Path.of("..");
    /** Metric names in an expression: every family this service exports starts with one of these. */
    private static final Pattern METRIC_IN_EXPRESSION =
            Pattern.compile("\\b((?:msgx|hikaricp|jvm|process|kafka_producer|system|executor|logback)_[a-z0-9_]+)");
    private static final Pattern WIRE_NAME_IN_DOCS = Pattern.compile("`([a-z][a-z0-9_]*)(?:\\{[^}`]*})?`");

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    @Test
    void every_documented_metric_and_every_metric_an_alert_or_the_dashboard_uses_is_on_the_wire() throws Exception {
        var scraped = scrapeAfterTraffic();
        Files.writeString(Path.of("target", "metrics-scrape.txt"), String.join("\n", scraped)); // for whoever edits docs

        var documented = documentedWireNames();
        assertThat(documented).as("the Metrics table of docs/operations.md lists wire names").hasSizeGreaterThan(20);
        assertThat(missing(documented, scraped)).as("documented in docs/operations.md but not on /metrics").isEmpty();

        var alerting = metricsIn(Files.readString(ROOT.resolve("ops/prometheus/alerts.yml")));
        assertThat(alerting).as("the alerts use metrics").hasSizeGreaterThan(8);
        assertThat(missing(alerting, scraped)).as("used by ops/prometheus/alerts.yml but not on /metrics").isEmpty();

        var dashboard = new LinkedHashSet<String>();
        new ObjectMapper().readTree(ROOT.resolve("ops/grafana/msgexchange.json").toFile()).findValues("expr")
                .stream().map(JsonNode::asText).forEach(expr -> dashboard.addAll(metricsIn(expr)));
        assertThat(dashboard).as("the dashboard's panels query metrics").hasSizeGreaterThan(8);
        assertThat(missing(dashboard, scraped)).as("used by the Grafana dashboard but not on /metrics").isEmpty();
    }

    /** The sample names of a scrape taken once the exchange processed and delivered a little of everything. */
    private Set<String> scrapeAfterTraffic() throws Exception {
        long good = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        services.deliver("<MSG><META>"); // DEAD(MALFORMED)
        services.deliver(sis.schedule(fltr("1002", "11MAR240935", "FLNO", "CA1406"))
                .replace("<FLNO>", "<XTRA>new</XTRA><FLNO>")); // an unmapped element
        services.deliver("<MSG><META><SNDR>AODB</SNDR><SEQN>77</SEQN><DTTM>20240311060000</DTTM><TYPE>ABDG</TYPE>"
                + "<STYP>DNLD</STYP></META><RECS>1</RECS><ABDG><ABCD>AB01</ABCD><STND>201</STND></ABDG></MSG>");
        services.deliver("no message at all", "INVALID"); // SKIPPED(status:INVALID), D-110
        services.deliver(sis.schedule(fltr("1003", "11MAR241035", "FLNO", "CA1407"))
                .replace("<FLNO>", "<EOBT>TBA</EOBT><FLNO>")); // a time that is no time, D-121
        services.deliver(sis.flops(FlopSubtype.STND, "1001", patch("STND", "12"), "1999", patch("STND", "13"))); // D-118
        long unknown = services.deliver(sis.other("ZZZZ", "X")); // a failed attempt, and the head held

        var keys = services.runnerKeysWithKafka();
        keys.putAll(RealServices.freshTopics("documented"));
        String body;
        try (var running = RunningExchange.start(keys)) {
            var exchange = running.exchange();
            RunningExchange.await("processed and delivered", 60, () ->
                    exchange.store().queue().find(unknown).map(r -> r.status() == ProcStatus.FAILED).orElse(false)
                            && exchange.status().pendingEvents() == 0);
            assertThat(exchange.store().queue().find(good).orElseThrow().status()).isEqualTo(ProcStatus.SUCCEEDED);
            System.gc(); // jvm_gc_pause_seconds appears with the first collection
            var response = running.get("/metrics");
            assertThat(response.statusCode()).isEqualTo(200);
            body = response.body();
        }
        var names = new TreeSet<String>();
        for (var line : body.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                int end = line.indexOf('{');
                names.add((end < 0 ? line.substring(0, line.indexOf(' ')) : line.substring(0, end)).strip());
            }
        }
        return names;
    }

    /** The backticked names in the first column of the Metrics table, labels dropped. */
    private static Set<String> documentedWireNames() throws Exception {
        var text = Files.readString(ROOT.resolve("docs/operations.md"), StandardCharsets.UTF_8);
        int start = text.indexOf("\n## Metrics");
        int end = text.indexOf("\n## ", start + 1);
        var names = new LinkedHashSet<String>();
        for (var line : text.substring(start, end).split("\n")) {
            if (line.startsWith("| `")) {
                var matcher = WIRE_NAME_IN_DOCS.matcher(line.split("\\|")[1]);
                while (matcher.find()) {
                    names.add(matcher.group(1));
                }
            }
        }
        return names;
    }

    private static Set<String> metricsIn(String expressions) {
        var names = new LinkedHashSet<String>();
        var matcher = METRIC_IN_EXPRESSION.matcher(expressions);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }

    /**
     * The names not on the wire: a name is there when a sample has it, or it is the family of a timer or summary
     * whose samples end {@code _count}, {@code _sum}, {@code _max} or {@code _bucket}.
     */
    private static List<String> missing(Set<String> names, Set<String> scraped) {
        var missing = new ArrayList<String>();
        for (var name : names) {
            boolean found = scraped.contains(name) || scraped.contains(name + "_count") || scraped.contains(name + "_max")
                    || scraped.contains(name + "_bucket");
            if (!found) {
                missing.add(name);
            }
        }
        return missing;
    }
}
