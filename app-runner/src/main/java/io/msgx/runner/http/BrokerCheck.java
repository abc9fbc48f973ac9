package io.msgx.runner.http;

import io.msgx.adapter.kafka.KafkaClusterProbe;

import java.time.Duration;

/** Ready only while the Kafka cluster the events go to answers. */
public final class BrokerCheck implements ReadinessCheck {

    private final KafkaClusterProbe probe;
    private final Duration timeout;

    public BrokerCheck(KafkaClusterProbe probe, Duration timeout) {
        this.probe = probe;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "broker";
    }

    @Override
    public Result check() {
        return probe.problem(timeout).map(Result::down).orElseGet(Result::up);
    }
}
