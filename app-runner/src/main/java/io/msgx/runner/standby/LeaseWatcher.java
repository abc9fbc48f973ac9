package io.msgx.runner.standby;

import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.runner.jobs.FatalErrorHandler;
import io.msgx.runner.jobs.JobPulse;
import io.msgx.runner.jobs.PipelineJobs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The standby loop of one exchange, on a thread of its own ({@code msgx-lease}): it takes the store's leader lease and
 * makes the instance active, waits as a hot standby while another instance holds it, and stops the pipeline when the
 * lease is lost. Its pulse is the one sign of life of a standby (D-70).
 */
public final class LeaseWatcher {

    private static final Logger log = LoggerFactory.getLogger(LeaseWatcher.class);

    private final LeaderLease lease;
    private final String storeDescription;
    private final Duration pollInterval;
    private final Duration standbyPoll;
    private final Clock clock;
    private final ActiveRole role;
    private final FatalErrorHandler onFatal;
    private final OutageLog leaseOutage;
    private Thread thread;
    /** Whether it said it waits as a standby (its thread only). */
    private boolean standbyAnnounced;
    /** Its last round: its own pulse. */
    private volatile Instant lastBeat;

    /**
     * @param storeDescription where the lease is, as the standby's log line names it
     * @param pollInterval     how often the lease is checked while active
     * @param standbyPoll      how often a hot standby asks for it again
     */
    public LeaseWatcher(LeaderLease lease, String storeDescription, Duration pollInterval, Duration standbyPoll,
                        Clock clock, ActiveRole role, FatalErrorHandler onFatal) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.storeDescription = storeDescription;
        this.pollInterval = pollInterval;
        this.standbyPoll = standbyPoll;
        this.clock = clock;
        this.role = Objects.requireNonNull(role, "role");
        this.onFatal = Objects.requireNonNull(onFatal, "onFatal");
        this.leaseOutage = new OutageLog(log, "Pipeline store", clock);
    }

    /** Start the watcher's thread; it takes its first look at once. */
    public void start() {
        lastBeat = clock.instant();
        thread = new Thread(this::watch, "msgx-lease");
        thread.setDaemon(true);
        thread.start();
    }

    /** End the watcher's thread (it also ends by itself once the role is closed). */
    public void stop() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** The watcher's pulse; empty before {@link #start()} and once the role is closed. */
    public Optional<JobPulse> pulse() {
        var beat = lastBeat;
        if (beat == null || role.closed()) {
            return Optional.empty();
        }
        var longest = standbyPoll.compareTo(pollInterval) > 0 ? standbyPoll : pollInterval;
        return Optional.of(new JobPulse("lease-watcher", longest, beat, null));
    }

    private void watch() {
        try {
            while (!role.closed()) {
                lastBeat = clock.instant();
                try {
                    Thread.sleep(checkLease().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException e) {
                    log.warn("Lease watcher: {}", e.toString());
                    sleepQuietly(standbyPoll);
                }
            }
        } catch (Error e) {
            log.error("Lease watcher hit {}; it ends here", e.toString(), e);
            onFatal.onFatalError("lease-watcher", e);
        }
    }

    /**
     * One look at the lease; returns how long until the next. Active, the lease is checked every poll interval, so a
     * lost session stops the pipeline at once. Without it: while another instance holds it, a hot standby asks again
     * every {@code msgx.jobs.standby-poll}; while the store cannot be reached (the lease was lost to an outage, most
     * often), as often as the pump ticks, so the pipeline is back within two poll intervals of the store's return.
     */
    private Duration checkLease() {
        if (role.active()) {
            if (lease.isHeld()) {
                return pollInterval;
            }
            log.error("Leader lease lost: stopping the pipeline on this instance");
            role.stepDown();
        }
        var retry = PipelineJobs.pumpPeriod(pollInterval);
        boolean acquired;
        try {
            acquired = lease.tryAcquire();
        } catch (StoreConflictException e) {
            // The store is there: it rolled the lease's statement back to break a conflict with another instance's.
            log.warn("Leader lease: the store rolled the request back to break a conflict, asking again in {}: {}",
                    retry, e.getMessage());
            return retry;
        } catch (StoreUnavailableException e) {
            leaseOutage.failed(e.getMessage(), "the lease is asked for again every " + retry);
            return retry;
        }
        leaseOutage.recovered();
        if (acquired) {
            role.becomeActive();
            standbyAnnounced = false;
            return pollInterval;
        }
        if (!standbyAnnounced) {
            log.info("Another instance is active on {}: waiting as a hot standby", storeDescription);
            standbyAnnounced = true;
        }
        return standbyPoll;
    }

    private static void sleepQuietly(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
