package io.msgx.runner.standby;

import io.msgx.pipeline.inbox.CutoverSeeding;
import io.msgx.pipeline.port.EventSink;
import io.msgx.runner.jobs.FatalErrorHandler;
import io.msgx.runner.jobs.PipelineJobs;
import io.msgx.runner.jobs.PipelineParts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.Optional;

/**
 * This instance's role: active, running the pipeline's jobs, while it holds the store's leader lease; a hot standby
 * otherwise. The {@link LeaseWatcher} turns it; closing it ends it for good.
 */
public final class ActiveRole {

    private static final Logger log = LoggerFactory.getLogger(ActiveRole.class);

    private final LeaderLease lease;
    private final PipelineParts parts;
    private final EventSink sink;
    private final boolean stepped;
    private final FatalErrorHandler onFatal;
    /** The pipeline's jobs while this instance is active; null while it is not. */
    private volatile PipelineJobs jobs;
    private volatile boolean closed;

    /**
     * @param sink    the broker's sink, guarded by the lease while active ({@link LeaseGuardedSink}); null without Kafka
     * @param stepped the jobs run when the embedder asks, on the clock's time, instead of on threads
     */
    public ActiveRole(LeaderLease lease, PipelineParts parts, EventSink sink, boolean stepped,
                      FatalErrorHandler onFatal) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.parts = Objects.requireNonNull(parts, "parts");
        this.sink = sink;
        this.stepped = stepped;
        this.onFatal = Objects.requireNonNull(onFatal, "onFatal");
    }

    /** True once closed: the lease watcher ends, and the role never becomes active again. */
    public boolean closed() {
        return closed;
    }

    /** True while this instance holds the lease and runs the pipeline. */
    public boolean active() {
        return jobs != null;
    }

    /** The pipeline's jobs while active. */
    public Optional<PipelineJobs> jobs() {
        return Optional.ofNullable(jobs);
    }

    /** The lease is taken: fence the store, seed the cut-over if one is configured, start the jobs. */
    synchronized void becomeActive() {
        if (closed) {
            return;
        }
        lease.fenceStore(); // from now on every write to the store proves the lease (D-108), the cut-over's too
        var config = parts.config();
        if (config.cutoverWatermark() != null) {
            var seeding = new CutoverSeeding(parts.mailbox(), parts.store().inboxCursor(), parts.clock());
            log.info("Cut-over: {}", seeding.seed(config.cutoverWatermark()));
        }
        var started = PipelineJobs.start(parts, sink == null ? null : new LeaseGuardedSink(sink, lease::isHeldByOwnClock),
                stepped, onFatal, () -> closed);
        jobs = started;
        log.info("Pipeline active: jobs {}", started.jobNames());
    }

    /** The lease is lost: stop the jobs (the instance waits as a standby again). */
    synchronized void stepDown() {
        var running = jobs;
        if (running == null) {
            return;
        }
        running.stop();
        jobs = null;
    }

    /** Stop the jobs for good: the role is closed. */
    public synchronized void close() {
        closed = true;
        stepDown();
    }
}
