package io.msgx.runner.metrics;

import io.msgx.pipeline.port.PipelineMetrics;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method added to {@link PipelineMetrics} with an empty default compiles without its Micrometer binding; this
 * test says so (issue 37, point 3): {@link MicrometerPipelineMetrics} overrides every method of the port.
 */
class PipelineMetricsBindingTest {

    @Test
    void the_micrometer_binding_implements_every_method_of_the_port() {
        var unbound = Arrays.stream(PipelineMetrics.class.getMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()))
                .filter(m -> !overridden(m))
                .map(Method::getName).sorted().toList();
        assertThat(unbound).as("PipelineMetrics methods MicrometerPipelineMetrics does not bind").isEmpty();
    }

    private static boolean overridden(Method method) {
        try {
            return MicrometerPipelineMetrics.class.getDeclaredMethod(method.getName(), method.getParameterTypes()) != null;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
