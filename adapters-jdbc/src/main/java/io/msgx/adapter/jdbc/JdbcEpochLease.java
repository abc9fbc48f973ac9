package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.LeaseLostException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * The single-active-instance lease bounded in time, with an epoch (issue 38, D-108), on a row of {@code LEADER_LEASE}.
 *
 * <ul>
 *   <li><b>Acquire:</b> a standby takes the row once it has expired by the <em>database's</em> clock (every instance
 *       agrees on it), whatever state the old holder's sessions are in; the epoch grows by one at every take-over.</li>
 *   <li><b>Renew:</b> the holder pushes the expiry {@code duration} ahead of the database's time, only while the row
 *       still holds its epoch; a renewal that finds another epoch means the lease was taken over.</li>
 *   <li><b>Held:</b> locally, until {@code duration} minus a margin after the start of the last renewal that succeeded
 *       (measured on this process's monotonic clock, started before the database read its time): the holder stops
 *       believing it holds the lease before the database lets anyone else take it.</li>
 *   <li><b>Fence:</b> {@link #prove} reads the row with a shared lock in the caller's transaction and refuses when it
 *       holds another epoch or the lease is not held locally. A take-over's update waits for those locks, so a write
 *       of the old holder either commits before the take-over or not at all. A transaction of a frozen holder that
 *       keeps the lock is ended by the server (PostgreSQL's {@code idle_in_transaction_session_timeout} on the store's
 *       sessions); the take-over's wait for it is bounded by {@code lockWait} and tried again at the next poll.</li>
 * </ul>
 * Thread-safe.
 */
public final class JdbcEpochLease implements LeaseFence, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(JdbcEpochLease.class);

    /**
     * @param name     the lease's row ({@code LEADER})
     * @param holder   this instance, as operators read it (host, process, start)
     * @param duration how long a renewal keeps the lease: a standby takes over at most this long after the holder's
     *                 last renewal
     * @param lockWait the longest a take-over, a renewal or a release waits for the row's lock before trying again
     */
    public record Settings(String name, String holder, Duration duration, Duration lockWait) {
        public Settings {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(holder, "holder");
            if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("the lease duration is at least 1 s, got " + duration);
            }
            if (lockWait.isNegative() || lockWait.isZero()) {
                throw new IllegalArgumentException("the lease's lock wait is positive, got " + lockWait);
            }
        }

        /** The part of the duration this holder gives up to clock drift: a tenth, at least 200 ms. */
        Duration margin() {
            var tenth = duration.dividedBy(10);
            return tenth.compareTo(Duration.ofMillis(200)) < 0 ? Duration.ofMillis(200) : tenth;
        }
    }

    /** The lease row as the database holds it now. */
    public record LeaseRow(String name, long epoch, String holder, Instant acquiredAt, Instant renewedAt,
                           Instant expiresAt) {

        /** Whether the lease still runs at {@code now} (the database's time): nobody else may take it then. */
        boolean runsAt(Instant now) {
            return expiresAt != null && expiresAt.isAfter(now);
        }
    }

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final Settings settings;
    private final LongSupplier nanoTime;
    private final TransactionRunner transactions;
    /** The epoch this instance holds; 0 when it holds none. */
    private volatile long epoch;
    /** Until when (nanoTime) this instance holds the lease, by its own clock. */
    private volatile long heldUntilNanos;

    /** @param nanoTime this process's monotonic clock ({@code System::nanoTime}) */
    public JdbcEpochLease(DataSource dataSource, SqlDialect dialect, Settings settings, LongSupplier nanoTime) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.dialect = Objects.requireNonNull(dialect, "dialect");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.transactions = new TransactionRunner(dataSource, dialect.failures()::unavailable, dialect::failure);
    }

    /** What a take-over or a renewal came to. */
    private enum Outcome { DONE, HELD_BY_ANOTHER, LOCK_BUSY }

    /**
     * True when this instance holds the lease now: held already, or taken now because it was free or expired (the
     * epoch then grows). False while another instance holds it, or while the row is locked by writes in flight.
     *
     * @throws StoreUnavailableException when the store cannot be reached
     */
    public synchronized boolean tryAcquire() {
        if (isHeld()) {
            return true;
        }
        long started = nanoTime.getAsLong();
        var outcome = inTransaction("taking the leader lease " + settings.name(), sql -> {
            var now = databaseTime(sql);
            // A look without a lock first: a standby asking every few seconds must not queue, behind the holder's
            // writes in flight, a lock that the holder's next writes would then queue behind.
            if (row(sql).filter(seen -> seen.runsAt(now)).isPresent()) {
                return Outcome.HELD_BY_ANOTHER;
            }
            var row = lockedRow(sql);
            if (row.runsAt(now)) {
                return Outcome.HELD_BY_ANOTHER;
            }
            long next = row.epoch() + 1;
            sql.run("taking the leader lease", session -> session.update("UPDATE LEADER_LEASE SET EPOCH = ?, HOLDER = ?,"
                            + " ACQUIRED_AT = ?, RENEWED_AT = ?, EXPIRES_AT = ? WHERE NAME = ?", next, settings.holder(),
                    now, now, now.plus(settings.duration()), settings.name()));
            if (row.holder() != null) {
                log.warn("Leader lease {} taken over at epoch {} from {} (epoch {}, expired {})", settings.name(), next,
                        row.holder(), row.epoch(), row.expiresAt());
            } else {
                log.info("Leader lease {} taken at epoch {}", settings.name(), next);
            }
            epoch = next;
            return Outcome.DONE;
        });
        if (outcome != Outcome.DONE) {
            epoch = 0;
            return false;
        }
        holdFrom(started);
        return true;
    }

    /**
     * Push the lease's expiry {@code duration} ahead; true while this instance holds it (renewed now, or the row was
     * busy and the last renewal still holds), false once it is lost (another epoch, or the local bound passed).
     *
     * @throws StoreUnavailableException when the store cannot be reached (the lease is then held until its local
     *                                   bound, {@link #isHeld})
     */
    public synchronized boolean renew() {
        long mine = epoch;
        if (mine == 0) {
            return false;
        }
        long started = nanoTime.getAsLong();
        var outcome = inTransaction("renewing the leader lease " + settings.name(), sql -> {
            var now = databaseTime(sql);
            int renewed = sql.run("renewing the leader lease", session -> session.update("UPDATE LEADER_LEASE SET"
                            + " RENEWED_AT = ?, EXPIRES_AT = ? WHERE NAME = ? AND EPOCH = ? AND HOLDER = ?", now,
                    now.plus(settings.duration()), settings.name(), mine, settings.holder()));
            return renewed == 1 ? Outcome.DONE : Outcome.HELD_BY_ANOTHER;
        });
        return switch (outcome) {
            case DONE -> {
                holdFrom(started);
                yield true;
            }
            case HELD_BY_ANOTHER -> {
                log.error("Leader lease {} lost: epoch {} is no longer this instance's (taken over while it was "
                        + "silent)", settings.name(), mine);
                epoch = 0;
                yield false;
            }
            case LOCK_BUSY -> isHeld();
        };
    }

    /** Held by this process's clock until the duration less the margin after {@code started}, a renewal's start. */
    private void holdFrom(long started) {
        heldUntilNanos = started + settings.duration().minus(settings.margin()).toNanos();
    }

    /** True while this instance holds the lease by its own clock (no database call). */
    public boolean isHeld() {
        return epoch != 0 && nanoTime.getAsLong() - heldUntilNanos < 0;
    }

    /** The epoch this instance holds; 0 when none. */
    public long epoch() {
        return isHeld() ? epoch : 0;
    }

    /** The row as the database holds it now, read without a lock (for status pages and tests). */
    public Optional<LeaseRow> row() {
        return row(StoreJdbc.autoCommit(dialect, dataSource));
    }

    private Optional<LeaseRow> row(StoreJdbc sql) {
        return sql.run("reading the leader lease " + settings.name(),
                session -> session.one(ROW + " WHERE NAME = ?", JdbcEpochLease::rowOf, settings.name()));
    }

    @Override
    public void prove(StoreJdbc.Session session) throws SQLException {
        long mine = epoch;
        if (mine == 0 || !isHeld()) {
            throw new LeaseLostException("this instance does not hold the leader lease " + settings.name()
                    + (mine == 0 ? "" : " any more (epoch " + mine + " ran out locally)") + ": nothing is written");
        }
        var current = session.one("SELECT EPOCH FROM LEADER_LEASE WHERE NAME = ?" + dialect.sharedRowLock(),
                row -> row.longValue("EPOCH"), settings.name());
        if (current.isEmpty() || current.get() != mine) {
            epoch = 0;
            throw new LeaseLostException("the leader lease " + settings.name() + " is at epoch " + current.orElse(null)
                    + ", this instance held " + mine + ": another instance took over; nothing is written");
        }
    }

    /** Give the lease up at once, so that a standby takes over at its next look instead of at expiry. */
    @Override
    public synchronized void close() {
        long mine = epoch;
        epoch = 0;
        if (mine == 0) {
            return;
        }
        try {
            inTransaction("releasing the leader lease " + settings.name(), sql -> {
                var now = databaseTime(sql);
                sql.run("releasing the leader lease", session -> session.update("UPDATE LEADER_LEASE SET EXPIRES_AT = ?"
                        + " WHERE NAME = ? AND EPOCH = ? AND HOLDER = ?", now, settings.name(), mine, settings.holder()));
                return Outcome.DONE;
            });
        } catch (RuntimeException e) {
            log.warn("Leader lease {} not released ({}): a standby takes over when it expires", settings.name(),
                    e.toString());
        }
    }

    private static final String ROW = "SELECT NAME, EPOCH, HOLDER, ACQUIRED_AT, RENEWED_AT, EXPIRES_AT FROM LEADER_LEASE";

    private static LeaseRow rowOf(StoreJdbc.Row row) throws SQLException {
        return new LeaseRow(row.text("NAME"), row.longValue("EPOCH"), row.text("HOLDER"), row.instant("ACQUIRED_AT"),
                row.instant("RENEWED_AT"), row.instant("EXPIRES_AT"));
    }

    /** The row, locked for update within {@code lockWait}; created (epoch 0) when missing. */
    private LeaseRow lockedRow(StoreJdbc sql) {
        var lockingSelect = ROW + " WHERE NAME = ?" + dialect.forUpdateWithin(settings.lockWait());
        return sql.run("locking the leader lease " + settings.name(), session -> {
            var locked = session.one(lockingSelect, JdbcEpochLease::rowOf, settings.name());
            if (locked.isPresent()) {
                return locked.get();
            }
            session.update("INSERT INTO LEADER_LEASE (NAME, EPOCH) VALUES (?, 0)", settings.name());
            return session.one(lockingSelect, JdbcEpochLease::rowOf, settings.name()).orElseThrow();
        });
    }

    private Instant databaseTime(StoreJdbc sql) {
        return sql.run("reading the database's time", session -> session.one(dialect.currentTime(),
                row -> row.instant("NOW")).orElseThrow());
    }

    /** A lease step of its own in one transaction, its lock waits bounded; a wait that ran out is LOCK_BUSY. */
    private Outcome inTransaction(String operation, java.util.function.Function<StoreJdbc, Outcome> work) {
        try {
            return transactions.run(operation, connection -> {
                var sql = StoreJdbc.inTransaction(dialect, connection);
                var bound = dialect.lockTimeout(settings.lockWait());
                if (bound.isPresent()) {
                    sql.run("bounding the lease's lock wait", session -> session.update(bound.get()));
                }
                return work.apply(sql);
            });
        } catch (RuntimeException e) {
            if (lockWaitOver(e)) {
                log.info("Leader lease {}: its row is locked by writes in flight, asked again later ({})",
                        settings.name(), operation);
                return Outcome.LOCK_BUSY;
            }
            throw e;
        }
    }

    private boolean lockWaitOver(Throwable e) {
        for (var cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && dialect.isLockWaitOver(sql)) {
                return true;
            }
        }
        return false;
    }
}
