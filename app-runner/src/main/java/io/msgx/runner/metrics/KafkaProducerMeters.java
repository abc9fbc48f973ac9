package io.msgx.runner.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.producer.Producer;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The Kafka client meters of the event sink's producer ({@code kafka.producer.*}), bound again to each producer that
 * replaces the one before (the sink replaces a producer another instance fenced, D-109).
 */
public final class KafkaProducerMeters implements Consumer<Producer<?, ?>>, AutoCloseable {

    private final MeterRegistry registry;
    private KafkaClientMetrics bound;

    public KafkaProducerMeters(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /** The meters of {@code producer} from now on, in place of the previous producer's. */
    @Override
    public synchronized void accept(Producer<?, ?> producer) {
        close();
        bound = new KafkaClientMetrics(producer);
        bound.bindTo(registry);
    }

    @Override
    public synchronized void close() {
        if (bound != null) {
            bound.close();
            bound = null;
        }
    }
}
