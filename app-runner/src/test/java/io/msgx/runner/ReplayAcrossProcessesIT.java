package io.msgx.runner;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.msgx.runner.BuiltRunner.jar;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replay and backfill exclude each other between processes (seeds §9.1, issue 24 point 4): while this process holds
 * the store's lifecycle lock (as the active instance's backfill round does), the CLI's {@code replay} in a process of
 * its own waits, and moves the message back to {@code PENDING} once the lock is released.
 */
class ReplayAcrossProcessesIT {

    @RegisterExtension
    final RealServices services = new RealServices();

    @Test
    void a_replay_in_another_process_waits_while_the_lifecycle_lock_is_held_here() throws Exception {
        var clock = SettableClock.atExampleDay();
        var store = services.store(clock);
        store.queue().insertIfAbsent(42, null, clock.instant());
        store.queue().finish(42, MessageEnd.dead(ErrorClass.EXHAUSTED, "attempts used up"), clock.instant());
        var holding = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var thread = Executors.newSingleThreadExecutor();
        try {
            var holder = thread.submit(() -> store.exclusiveLifecycle(() -> {
                holding.countDown();
                try {
                    return release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }));
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();

            var log = Files.createTempFile("msgx-replay", ".log");
            var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            var replay = new ProcessBuilder(java, "-Xmx256m", "-jar", jar(), "replay", "42", "--operator", "ops", "-c",
                    configFile().toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                assertThat(replay.waitFor(8, TimeUnit.SECONDS)).as("the replay waits for the lock; its output: %s",
                        Files.readString(log)).isFalse();
                assertThat(store.queue().find(42).orElseThrow().status()).isEqualTo(ProcStatus.DEAD);

                release.countDown();
                holder.get(30, TimeUnit.SECONDS);
                assertThat(replay.waitFor(60, TimeUnit.SECONDS)).as("the replay ends once the lock is free").isTrue();
                assertThat(replay.exitValue()).as(Files.readString(log)).isZero();
                assertThat(store.queue().find(42).orElseThrow().status()).isEqualTo(ProcStatus.PENDING);
            } finally {
                replay.destroyForcibly();
            }
        } finally {
            release.countDown();
            thread.shutdownNow();
        }
    }

    private Path configFile() throws Exception {
        var file = Files.createTempFile("msgx", ".properties");
        var lines = new StringBuilder();
        services.runnerKeys().forEach((key, value) -> lines.append(key).append('=').append(value).append('\n'));
        Files.writeString(file, lines, StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file;
    }
}
