package io.msgx.tools.crash;

import io.msgx.tools.simulator.MailboxFeeder;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a simulated day into the mailbox from its own thread, a few rows at a time, as the AODB side does while
 * the runner comes and goes: rows keep arriving while the runner starts, runs and lies dead. The test releases the
 * day in quotas (one per crash cycle), so intake overlaps the first kills whatever the machine's speed.
 */
public final class TrickleFeeder implements AutoCloseable {

    private static final int ROWS_PER_STEP = 1;
    private static final Duration STEP = Duration.ofMillis(40);

    private final MailboxFeeder.Feed feed;
    private final int total;
    private final Thread thread;
    private final List<MailboxFeeder.FedMessage> fed = new ArrayList<>();
    private int released;
    private RuntimeException failure;
    private volatile boolean closed;

    public TrickleFeeder(MailboxFeeder.Feed feed) {
        this.feed = feed;
        this.total = feed.remaining();
        this.thread = new Thread(this::run, "crash-feeder");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Let {@code rows} more rows be written, one every 40 ms (25 a second, a busy AODB side). */
    public synchronized void release(int rows) {
        released = Math.min(total, released + rows);
        notifyAll();
    }

    public synchronized void releaseAll() {
        release(total);
    }

    /** True while released rows are still being written: the mailbox is growing. */
    public synchronized boolean isWriting() {
        return fed.size() < released;
    }

    /** Every row written so far, in mailbox order. */
    public synchronized List<MailboxFeeder.FedMessage> fed() {
        return List.copyOf(fed);
    }

    /** Wait until every released row is written; rethrows what stopped the feeder. */
    public synchronized void awaitReleased(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (fed.size() < released && failure == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("the feeder wrote " + fed.size() + " of " + released
                        + " released rows in " + timeout);
            }
            wait(Math.max(1, left / 1_000_000));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void run() {
        try {
            while (!closed) {
                int now;
                synchronized (this) {
                    while (fed.size() >= released && !closed) {
                        wait();
                    }
                    now = Math.min(ROWS_PER_STEP, released - fed.size());
                }
                if (closed) {
                    return;
                }
                var written = feed.feedNext(now);
                synchronized (this) {
                    fed.addAll(written);
                    notifyAll();
                }
                Thread.sleep(STEP.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            synchronized (this) {
                failure = e;
                notifyAll();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
