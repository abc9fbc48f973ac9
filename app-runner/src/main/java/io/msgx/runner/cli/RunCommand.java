package io.msgx.runner.cli;

import io.msgx.runner.embed.BuildInfo;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "run", description = "Run the pipeline (poller, pump, dispatcher, jobs) and the HTTP side until stopped.")
final class RunCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

    @Mixin
    ConfigOption config;

    @Override
    public Integer call() throws Exception {
        var settings = config.load();
        log.info("Starting msgexchange {} with {}", BuildInfo.current().describe(), settings.describe());
        var exchange = MsgExchange.builder().config(settings).build();
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
        stopped.await();
        return 0;
    }
}
