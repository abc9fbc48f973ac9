package io.msgx.runner.cli;

import io.msgx.runner.build.BuildInfo;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import io.msgx.runner.jobs.JobRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "run", description = "Run the pipeline (poller, pump, dispatcher, jobs) and the HTTP side until stopped.")
final class RunCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

    @Mixin
    ConfigOption config;

    /**
     * TEST ONLY — never set in production, and no configuration key or variable sets it: after this delay, a loop of
     * its own throws an {@link AssertionError} through the same {@link ExitOnFatalError} handler the pipeline's loops
     * have, so a test can watch the process exit with {@value Main#FATAL} (RunnerProcessIT). Hidden from the usage.
     */
    @Option(names = "--test-only-fatal-error-after", hidden = true, paramLabel = "MILLIS")
    Long testOnlyFatalErrorAfter;

    @Override
    public Integer call() throws Exception {
        var settings = config.load();
        log.info("Starting msgexchange {} with {}", BuildInfo.current().describe(), settings.describe());
        var onFatal = new ExitOnFatalError();
        var exchange = MsgExchange.builder().config(settings).onFatalError(onFatal).build();
        var http = HttpApi.forExchange(exchange);
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("Stop requested: finishing the message in hand, then stopping");
            http.stop(Duration.ofSeconds(5));
            exchange.close();
            stopped.countDown();
        }, "msgx-shutdown"));
        exchange.start();
        http.start();
        log.info("HTTP on port {}", http.port());
        if (testOnlyFatalErrorAfter != null) {
            log.warn("TEST ONLY: a fatal error is injected in {} ms (--test-only-fatal-error-after)", testOnlyFatalErrorAfter);
            long due = System.nanoTime() + Duration.ofMillis(testOnlyFatalErrorAfter).toNanos();
            new JobRunner(java.time.Clock.systemUTC(), onFatal).register("test-only-fault", () -> {
                if (System.nanoTime() - due >= 0) {
                    throw new AssertionError("test-only fatal error (--test-only-fatal-error-after)");
                }
            }, Duration.ofMillis(100)).start();
        }
        stopped.await();
        return 0;
    }
}
