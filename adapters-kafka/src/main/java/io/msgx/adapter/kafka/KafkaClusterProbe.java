package io.msgx.adapter.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

import java.time.Duration;
import java.util.HashMap;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Asks the cluster the sink publishes to whether it answers, within a bound: for readiness checks. Each call
 * opens and closes its own admin client, so a probe holds nothing between calls.
 */
public final class KafkaClusterProbe {

    private final KafkaSinkSettings settings;

    public KafkaClusterProbe(KafkaSinkSettings settings) {
        this.settings = settings;
    }

    /** Empty when the cluster answered with at least one broker within {@code timeout}; otherwise why not. */
    public Optional<String> problem(Duration timeout) {
        var config = new HashMap<String, Object>(settings.producerProperties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, settings.clientId() + "-probe");
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        config.keySet().removeIf(key -> !AdminClientConfig.configNames().contains(key));
        try (var admin = Admin.create(config)) {
            var nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return nodes.isEmpty() ? Optional.of("the cluster at " + settings.bootstrapServers() + " lists no broker")
                    : Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while asking " + settings.bootstrapServers());
        } catch (Exception e) {
            return Optional.of("Kafka at " + settings.bootstrapServers() + " did not answer within " + timeout + ": " + e);
        }
    }
}
