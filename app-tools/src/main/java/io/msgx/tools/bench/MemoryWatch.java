package io.msgx.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples the heap in use ({@link MemoryMXBean}) every 100 ms on a daemon thread and keeps the peak; reads the
 * process's peak resident set ({@code VmHWM} in {@code /proc/self/status}) on demand.
 */
final class MemoryWatch implements AutoCloseable {

    static final long PERIOD_MILLIS = 100;

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong peakHeap = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final Thread sampler;
    private volatile boolean stopped;

    MemoryWatch() {
        sample();
        sampler = new Thread(this::run, "msgx-bench-memory");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void run() {
        while (!stopped) {
            sample();
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void sample() {
        long used = memory.getHeapMemoryUsage().getUsed();
        peakHeap.accumulateAndGet(used, Math::max);
        samples.incrementAndGet();
    }

    long peakHeapBytes() {
        return peakHeap.get();
    }

    long samples() {
        return samples.get();
    }

    /** {@code -Xmx}: the most heap the JVM will use ({@link Runtime#maxMemory()}). */
    static long maxHeapBytes() {
        return Runtime.getRuntime().maxMemory();
    }

    /** Peak resident set size of this process ({@code VmHWM}), or -1 where {@code /proc} has none. */
    static long peakRssBytes() {
        long kib = procStatusKiB("VmHWM:");
        return kib < 0 ? -1 : kib * 1024L;
    }

    static long procStatusKiB(String field) {
        try {
            for (var line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    var value = line.substring(field.length()).trim().split("\\s+")[0];
                    return Long.parseLong(value);
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
        sample();
    }
}
