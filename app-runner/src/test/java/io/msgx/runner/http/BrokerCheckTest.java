package io.msgx.runner.http;

import io.msgx.adapter.kafka.KafkaClusterProbe;
import io.msgx.adapter.kafka.KafkaSinkSettings;
import io.msgx.adapter.kafka.KafkaTestBroker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class BrokerCheckTest {

    @Test
    void a_reachable_broker_is_up() {
        var check = new BrokerCheck(new KafkaClusterProbe(KafkaSinkSettings.defaults(KafkaTestBroker.bootstrapServers())),
                Duration.ofSeconds(5));
        assertThat(check.check()).isEqualTo(ReadinessCheck.Result.up());
    }

    @Test
    void an_unreachable_broker_is_down_within_the_bound_and_says_where() {
        var check = new BrokerCheck(new KafkaClusterProbe(KafkaSinkSettings.defaults("127.0.0.1:1")), Duration.ofSeconds(1));
        var started = Instant.now();
        var result = check.check();
        assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(5));
        assertThat(result).isInstanceOfSatisfying(ReadinessCheck.Result.Down.class,
                down -> assertThat(down.reason()).contains("127.0.0.1:1"));
    }
}
