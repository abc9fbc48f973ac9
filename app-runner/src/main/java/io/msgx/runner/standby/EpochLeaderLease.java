package io.msgx.runner.standby;

import io.msgx.adapter.jdbc.JdbcEpochLease;
import io.msgx.adapter.jdbc.JdbcPipelineStore;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.runner.config.RunnerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The runner's leader lease on a JDBC store (D-108): the adapters' {@link JdbcEpochLease}, renewed every
 * {@code msgx.lease.renew-interval} while the exchange asks whether it still holds it, and fencing the store once the
 * instance is active. A renewal that meets an unreachable store keeps the lease until its local bound, as a renewal
 * that met a busy row does.
 */
public final class EpochLeaderLease implements LeaderLease {

    private static final Logger log = LoggerFactory.getLogger(EpochLeaderLease.class);
    /** The longest a take-over, a renewal or a release waits for the lease row's lock. */
    private static final Duration LOCK_WAIT = Duration.ofSeconds(2);

    private final JdbcEpochLease lease;
    private final JdbcPipelineStore<?> store;
    private final long renewNanos;
    private long lastRenewal;

    public EpochLeaderLease(JdbcPipelineStore<?> store, RunnerConfig.Lease config) {
        this.store = Objects.requireNonNull(store, "store");
        this.lease = store.lease(new JdbcEpochLease.Settings("LEADER", holder(),
                config.duration(), LOCK_WAIT.compareTo(config.duration()) < 0 ? LOCK_WAIT : config.duration().dividedBy(2)),
                System::nanoTime);
        this.renewNanos = config.renewInterval().toNanos();
    }

    /** This instance as operators read it in {@code LEADER_LEASE.HOLDER}: host, process, start. */
    private static String holder() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException | SecurityException e) {
            host = "unknown-host";
        }
        return host + " pid " + ProcessHandle.current().pid() + " since " + Instant.now();
    }

    @Override
    public synchronized boolean tryAcquire() {
        boolean held = lease.tryAcquire();
        if (held) {
            lastRenewal = System.nanoTime();
        }
        return held;
    }

    @Override
    public synchronized boolean isHeld() {
        if (lease.isHeld() && System.nanoTime() - lastRenewal >= renewNanos) {
            lastRenewal = System.nanoTime();
            try {
                return lease.renew() && lease.isHeld();
            } catch (StoreUnavailableException e) {
                log.warn("Leader lease not renewed ({}); held until its bound unless a renewal succeeds first",
                        e.getMessage());
            }
        }
        return lease.isHeld();
    }

    @Override
    public boolean isHeldByOwnClock() {
        return lease.isHeld();
    }

    @Override
    public void fenceStore() {
        store.fenceWith(lease);
    }

    @Override
    public void close() {
        lease.close();
    }
}
