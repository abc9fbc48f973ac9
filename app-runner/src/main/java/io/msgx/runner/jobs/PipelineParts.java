package io.msgx.runner.jobs;

import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.lifecycle.MessageLifecycleGate;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.request.RequestSender;
import io.msgx.runner.config.RunnerConfig;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.runner.metrics.PipelineGauges;

import java.time.Clock;

/**
 * What the pipeline's jobs work on, built once for the life of an exchange and shared by each of its activations.
 *
 * @param gate        replay and backfill apart, in this process and between every process sharing the store (seeds
 *                    §9.1)
 * @param flightCache one cache across fail-overs: a state it holds is used only while its stamp is the stored one
 *                    (D-39), whatever another instance wrote meanwhile
 * @param metrics     the pipeline's meters and gauges, bound once: a gauge registered again under its name stays bound
 *                    to the first holder, so a binding per activation left the gauges frozen after a fail-over back
 */
public record PipelineParts(RunnerConfig config, Clock clock, PipelineStore store, Mailbox mailbox, XmlCodec codec,
                            MessageLifecycleGate gate, FlightCache flightCache, MicrometerPipelineMetrics metrics,
                            PipelineGauges gauges) {

    /** Sends our requests to the AODB side; null in a shadow deployment (it writes to the mailbox). */
    public RequestSender requestSender() {
        return config.mailbox().readOnly() ? null
                : new RequestSender(mailbox, store, config.requests(), config.engine().operationDayRule(), clock);
    }
}
