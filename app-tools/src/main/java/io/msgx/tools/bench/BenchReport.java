package io.msgx.tools.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Everything one bench run measured, with the machine and the parameters; written as JSON
 * ({@link #writeJson}) and printed as a table ({@link #print}).
 */
public record BenchReport(String startedAt, String finishedAt, Machine machine, BenchParameters parameters,
                          Map<String, String> pipelineSettings, Digest smallDigest, Digest fullDigest, Live live,
                          Dispatch dispatch, Memory memory, CommitBaseline commitBaseline, ProducerFigures producerBaseline,
                          Ratios ratios, List<Target> targets, List<String> notes) {

    /** One fill of the mailbox (not part of the digest figure). */
    public record Fill(long rows, long xmlChars, double seconds, double rowsPerSecond, int simulatedDays) {
    }

    /**
     * One digest of a filled mailbox: from {@code start()} until every message is terminal, and until the outbox is
     * drained (every event acknowledged by Kafka).
     */
    public record Digest(long messages, Fill fill, boolean allTerminal, long succeeded, long skipped, long dead,
                         double secondsToTerminal, double messagesPerSecond, double microsPerMessage,
                         boolean outboxDrained, long eventsDelivered, long eventsDead, double secondsToOutboxDrained,
                         double eventsPerSecond) {
    }

    /** Live load while the pipeline ran idle; latencies in milliseconds. */
    public record Live(int fed, double targetRate, double achievedRate, String ackSource,
                       Latencies commitToAck, Latencies commitToTerminal,
                       int withoutEvents, int notTerminal) {
    }

    /**
     * The dispatcher alone: every event of the full digest made due again and delivered by a pipeline with nothing
     * else to do, per-FLID order kept; the figure the raw producer rate is compared with.
     */
    public record Dispatch(long rearmed, long delivered, double seconds, double eventsPerSecond) {
    }

    public record Memory(long peakHeapBytes, long maxHeapBytes, long peakRssBytes, long heapSamples,
                         long samplePeriodMillis) {
    }

    public record CommitBaseline(long commits, double seconds, double commitsPerSecond, String synchronousCommit) {
    }

    /**
     * The raw producer baseline: the figures of its median run ({@code recordsPerSecond} is the median), and the
     * records/s of every run in the order they ran.
     */
    public record ProducerFigures(long records, long acknowledged, long failed, double seconds,
                                  double recordsPerSecond, int sampledRecords, double meanPayloadBytes,
                                  String msgTopic, String schdTopic, String firstFailure,
                                  List<Double> runsRecordsPerSecond) {
    }

    /**
     * @param digestToBareCommit        full digest msg/s ÷ bare commits/s
     * @param dispatchToRawProducer     dispatcher-alone events/s ÷ raw producer records/s
     * @param costFullToSmall           µs per message at N ÷ µs per message at the small backlog
     */
    public record Ratios(double digestToBareCommit, double dispatchToRawProducer, double costFullToSmall) {
    }

    /** One of the targets next to what was measured. */
    public record Target(String figure, String target, double measured, boolean met) {
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public void writeJson(Path file) throws IOException {
        var parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        JSON.writeValue(file.toFile(), this);
    }

    public String toJson() throws IOException {
        return JSON.writeValueAsString(this);
    }

    public void print(PrintWriter out) {
        out.println();
        out.printf("msgexchange bench — %d cores, %s, %s MiB RAM, Java %s%n", machine.cores(), machine.cpuModel(),
                machine.totalMemoryBytes() / (1024 * 1024), machine.javaVersion());
        out.printf("  PostgreSQL %s | MySQL/MariaDB %s | Kafka %s%n", machine.postgresVersion(),
                machine.mysqlVersion(), machine.kafkaBootstrapServers());
        out.println();
        out.printf("%-44s %14s %14s%n", "figure", "small backlog", "full backlog");
        row(out, "messages", smallDigest.messages(), fullDigest.messages(), "%,d");
        row(out, "fill (not timed into digest), rows/s", smallDigest.fill().rowsPerSecond(),
                fullDigest.fill().rowsPerSecond(), "%,.0f");
        row(out, "digest: messages/s to terminal", smallDigest.messagesPerSecond(), fullDigest.messagesPerSecond(),
                "%,.1f");
        row(out, "digest: µs per message", smallDigest.microsPerMessage(), fullDigest.microsPerMessage(), "%,.0f");
        row(out, "dispatch: events acked by Kafka", smallDigest.eventsDelivered(), fullDigest.eventsDelivered(),
                "%,d");
        row(out, "dispatch: events/s (start → outbox drained)", smallDigest.eventsPerSecond(),
                fullDigest.eventsPerSecond(), "%,.1f");
        out.println();
        out.printf("live load: %d messages at %.0f msg/s (achieved %.1f)%n", live.fed(), live.targetRate(),
                live.achievedRate());
        out.printf("  commit → Kafka ack (%s): p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d matched, %d publish nothing)%n",
                live.ackSource(), live.commitToAck().p50Millis(), live.commitToAck().p99Millis(),
                live.commitToAck().maxMillis(), live.commitToAck().count(), live.withoutEvents());
        out.printf("  commit → terminal: p50 %.0f ms, p99 %.0f ms, max %.0f ms (%d not terminal)%n",
                live.commitToTerminal().p50Millis(), live.commitToTerminal().p99Millis(),
                live.commitToTerminal().maxMillis(), live.notTerminal());
        out.printf("memory: peak heap %.0f MiB of -Xmx %.0f MiB; peak RSS %.0f MiB%n", mib(memory.peakHeapBytes()),
                mib(memory.maxHeapBytes()), mib(memory.peakRssBytes()));
        out.printf("baseline: bare PostgreSQL commits/s (1 connection, synchronous_commit=%s): %,.0f%n",
                commitBaseline.synchronousCommit(), commitBaseline.commitsPerSecond());
        out.printf("baseline: raw producer records/s (sink settings, %,d records, mean %.0f chars, median of %d run(s): "
                        + "%s): %,.0f%n", producerBaseline.records(), producerBaseline.meanPayloadBytes(),
                producerBaseline.runsRecordsPerSecond().size(), producerBaseline.runsRecordsPerSecond().stream()
                        .map(rate -> String.format("%,.0f", rate)).collect(Collectors.joining(", ")),
                producerBaseline.recordsPerSecond());
        out.printf("dispatch alone: %,d events re-armed, %,d delivered in %.1f s: %,.0f events/s%n",
                dispatch.rearmed(), dispatch.delivered(), dispatch.seconds(), dispatch.eventsPerSecond());
        out.printf("ratios: digest ÷ bare commit %.2f× | dispatch ÷ raw producer %.3f× | cost at N ÷ cost at small %.2f×%n",
                ratios.digestToBareCommit(), ratios.dispatchToRawProducer(), ratios.costFullToSmall());
        out.println();
        out.println("targets:");
        for (var target : targets) {
            out.printf("  %-40s %-22s measured %-12s %s%n", target.figure(), target.target(),
                    String.format("%.3f", target.measured()), target.met() ? "met" : "NOT met");
        }
        for (var note : notes) {
            out.println("note: " + note);
        }
        out.flush();
    }

    private static void row(PrintWriter out, String name, double small, double full, String format) {
        out.printf("%-44s %14s %14s%n", name, String.format(format, small), String.format(format, full));
    }

    private static void row(PrintWriter out, String name, long small, long full, String format) {
        out.printf("%-44s %14s %14s%n", name, String.format(format, small), String.format(format, full));
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }
}
