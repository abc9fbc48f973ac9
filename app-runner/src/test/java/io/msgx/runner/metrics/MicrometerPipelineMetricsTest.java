package io.msgx.runner.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.pipeline.pump.HeadBlock;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

class MicrometerPipelineMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerPipelineMetrics metrics = new MicrometerPipelineMetrics(registry);

    @Test
    void every_untagged_meter_exists_at_zero_before_anything_happens() {
        for (var counter : new String[]{"msgx.inbox.permanent_holes", "msgx.inbox.enqueued",
                "msgx.dispatch.delivered", "msgx.dispatch.failed", "msgx.dispatch.dead"}) {
            assertThat(registry.get(counter).counter().count()).as(counter).isZero();
        }
        for (var gauge : new String[]{"msgx.inbox.watermark_lag", "msgx.dispatch.pending",
                "msgx.dispatch.dead_letters", "msgx.dispatch.oldest_pending_seconds"}) {
            assertThat(registry.get(gauge).gauge().value()).as(gauge).isZero();
        }
    }

    @Test
    void the_head_gauge_shows_one_for_the_reason_that_holds_the_head_and_zero_for_the_others() {
        for (var reason : new String[]{"unsupported", "backoff", "beyond_watermark"}) {
            assertThat(registry.get("msgx.pipeline.head.blocked").tag("reason", reason).gauge().value())
                    .as("before any tick: " + reason).isZero();
        }
        metrics.fifoHead(HeadBlock.UNSUPPORTED);
        assertThat(registry.get("msgx.pipeline.head.blocked").tag("reason", "unsupported").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get("msgx.pipeline.head.blocked").tag("reason", "backoff").gauge().value()).isZero();

        metrics.fifoHead(HeadBlock.NOT_BLOCKED);
        assertThat(registry.get("msgx.pipeline.head.blocked").gauges()).allSatisfy(g -> assertThat(g.value()).isZero());
    }

    @Test
    void unmapped_paths_are_counted_by_kind_and_path() {
        metrics.unmappedRead("FLOP-GTDT", "FLOP/GTDT/@XTRA");
        metrics.unmappedRead("FLOP-GTDT", "FLOP/GTDT/@XTRA");
        metrics.unmappedRead("SCHD-DNLD", "FLTR/XTRA");

        assertThat(registry.get("msgx.codec.unmapped").tags("type", "FLOP-GTDT", "path", "FLOP/GTDT/@XTRA")
                .counter().count()).isEqualTo(2.0);
        assertThat(registry.get("msgx.codec.unmapped").tags("type", "SCHD-DNLD", "path", "FLTR/XTRA")
                .counter().count()).isEqualTo(1.0);
    }

    @Test
    void a_permanent_hole_counts_every_id_skipped_inclusive() {
        metrics.permanentHoleReleased(10, 10);
        metrics.permanentHoleReleased(20, 24);

        assertThat(registry.get("msgx.inbox.permanent_holes").counter().count()).isEqualTo(6.0);
    }

    @Test
    void enqueued_rows_add_up_and_an_empty_round_counts_nothing() {
        metrics.enqueued(3);
        metrics.enqueued(0);
        metrics.enqueued(4);

        assertThat(registry.get("msgx.inbox.enqueued").counter().count()).isEqualTo(7.0);
    }

    @Test
    void watermark_lag_gauge_shows_the_last_value() {
        metrics.watermarkLag(12);
        metrics.watermarkLag(5);

        assertThat(registry.get("msgx.inbox.watermark_lag").gauge().value()).isEqualTo(5.0);
    }

    @Test
    void an_ended_message_is_counted_by_state_and_error_class() {
        metrics.messageEnded(ProcStatus.SUCCEEDED, null);
        metrics.messageEnded(ProcStatus.SUCCEEDED, null);
        metrics.messageEnded(ProcStatus.SKIPPED, null);
        metrics.messageEnded(ProcStatus.DEAD, ErrorClass.PROTOCOL);
        metrics.messageEnded(ProcStatus.DEAD, ErrorClass.EXHAUSTED);
        metrics.messageEnded(ProcStatus.DEAD, ErrorClass.EXHAUSTED);

        assertThat(ended("SUCCEEDED", "none")).isEqualTo(2.0);
        assertThat(ended("SKIPPED", "none")).isEqualTo(1.0);
        assertThat(ended("DEAD", "PROTOCOL")).isEqualTo(1.0);
        assertThat(ended("DEAD", "EXHAUSTED")).isEqualTo(2.0);
        assertThat(registry.get("msgx.pipeline.messages.ended").counters()).hasSize(4);
    }

    @Test
    void a_failed_attempt_is_counted_by_error_class() {
        metrics.attemptFailed(ErrorClass.INFRA);
        metrics.attemptFailed(ErrorClass.INFRA);
        metrics.attemptFailed(ErrorClass.UNSUPPORTED);

        assertThat(registry.get("msgx.pipeline.attempts.failed").tag("error_class", "INFRA").counter().count())
                .isEqualTo(2.0);
        assertThat(registry.get("msgx.pipeline.attempts.failed").tag("error_class", "UNSUPPORTED").counter().count())
                .isEqualTo(1.0);
    }

    @Test
    void deliveries_count_delivered_failed_and_dead_separately() {
        metrics.eventsDelivered(5);
        metrics.eventsDelivered(2);
        metrics.eventDeliveriesFailed(3, 1);
        metrics.eventDeliveriesFailed(2, 0);

        assertThat(registry.get("msgx.dispatch.delivered").counter().count()).isEqualTo(7.0);
        assertThat(registry.get("msgx.dispatch.failed").counter().count()).isEqualTo(5.0);
        assertThat(registry.get("msgx.dispatch.dead").counter().count()).isEqualTo(1.0);
    }

    @Test
    void the_delivery_backlog_gauges_show_the_last_report() {
        metrics.deliveryBacklog(40, 2, Duration.ofSeconds(90));
        metrics.deliveryBacklog(7, 3, Duration.ofMillis(1500));

        assertThat(gauge("msgx.dispatch.pending")).isEqualTo(7.0);
        assertThat(gauge("msgx.dispatch.dead_letters")).isEqualTo(3.0);
        assertThat(gauge("msgx.dispatch.oldest_pending_seconds")).isEqualTo(1.5);

        metrics.deliveryBacklog(0, 3, Duration.ZERO);
        assertThat(gauge("msgx.dispatch.pending")).isZero();
        assertThat(gauge("msgx.dispatch.oldest_pending_seconds")).isZero();
    }

    @Test
    void odd_input_never_throws() {
        assertThatCode(() -> {
            metrics.messageEnded(null, null);
            metrics.attemptFailed(null);
            metrics.deliveryBacklog(1, 0, null);
            metrics.deliveryBacklog(1, 0, Duration.ofSeconds(-5));
            metrics.enqueued(-1);
            metrics.permanentHoleReleased(9, 3);
            metrics.watermarkLag(-2);
        }).doesNotThrowAnyException();
        assertThat(gauge("msgx.dispatch.oldest_pending_seconds")).isZero();
        assertThat(registry.get("msgx.inbox.enqueued").counter().count()).isZero();
        assertThat(registry.get("msgx.inbox.permanent_holes").counter().count()).isZero();
    }

    @Test
    void a_registry_that_fails_does_not_fail_the_pipeline() {
        MeterRegistry broken = new SimpleMeterRegistry();
        broken.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (id.getTags().isEmpty()) {
                    return id;
                }
                throw new IllegalStateException("broken filter");
            }
        });
        var bound = new MicrometerPipelineMetrics(broken);

        assertThatCode(() -> {
            bound.duplicateSkipped(true);
            bound.messageEnded(ProcStatus.DEAD, ErrorClass.INTERNAL);
            bound.attemptFailed(ErrorClass.INFRA);
            bound.unmappedRead("FLOP-GTDT", "FLOP/GTDT/@XTRA");
            bound.fifoHead(HeadBlock.UNSUPPORTED);
        }).doesNotThrowAnyException();
        bound.enqueued(2);
        assertThat(broken.get("msgx.inbox.enqueued").counter().count()).isEqualTo(2.0);
    }

    private double ended(String state, String errorClass) {
        return registry.get("msgx.pipeline.messages.ended").tag("state", state).tag("error_class", errorClass)
                .counter().count();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void commit_to_ack_is_a_timer_scraped_as_msgx_dispatch_commit_to_ack_seconds() {
        var prometheus = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        var bound = new MicrometerPipelineMetrics(prometheus);

        bound.committedToAcknowledged(Duration.ofMillis(120));
        bound.committedToAcknowledged(Duration.ofMillis(380));
        bound.committedToAcknowledged(Duration.ofMillis(-5)); // clocks that disagree: counted as zero, not dropped

        var timer = prometheus.get(MicrometerPipelineMetrics.COMMIT_TO_ACK).timer();
        assertThat(timer.count()).isEqualTo(3);
        assertThat(timer.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(500.0);
        var scrape = prometheus.scrape();
        assertThat(scrape).contains("msgx_dispatch_commit_to_ack_seconds_count 3")
                .contains("msgx_dispatch_commit_to_ack_seconds_sum 0.5")
                .contains("msgx_dispatch_commit_to_ack_seconds_bucket{le=");
    }
}
