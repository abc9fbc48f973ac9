package io.msgx.example.consumer;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.errors.WakeupException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a {@link FlightFollower} against a site's cluster and prints a line per applied change, until stopped (Ctrl-C).
 *
 * <pre>
 * ConsumerExample [--bootstrap host:port] [--msg topic] [--schd topic] [--config client.properties]
 * </pre>
 *
 * Each option may come from the environment instead: {@code MSGX_KAFKA_BOOTSTRAP_SERVERS}, {@code MSGX_KAFKA_TOPIC_MSG},
 * {@code MSGX_KAFKA_TOPIC_SCHD} (the names msgexchange's own settings have), {@code CONSUMER_CONFIG}. The topics default
 * to the contract's defaults. {@code --config} names a Kafka client properties file for what a site needs beyond the
 * address (TLS, SASL); it cannot change the isolation level.
 */
public final class ConsumerExample {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private ConsumerExample() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        var options = options(args);
        var bootstrap = options.get("bootstrap");
        if (bootstrap == null) {
            System.err.println("Usage: ConsumerExample --bootstrap host:port [--msg topic] [--schd topic] "
                    + "[--config client.properties] (or MSGX_KAFKA_BOOTSTRAP_SERVERS, MSGX_KAFKA_TOPIC_MSG, "
                    + "MSGX_KAFKA_TOPIC_SCHD, CONSUMER_CONFIG)");
            System.exit(2);
            return;
        }
        var config = FlightFollower.consumerConfig(bootstrap);
        if (options.containsKey("config")) {
            var site = new Properties();
            try (InputStream in = Files.newInputStream(Path.of(options.get("config")))) {
                site.load(in);
            }
            site.forEach((key, value) -> config.put(key.toString(), value));
            config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"); // the contract's, whatever the file says
        }
        run(new FlightFollower(config, options.get("msg"), options.get("schd")), System.out);
    }

    /** Bootstraps, then follows until the JVM is asked to stop. */
    private static void run(FlightFollower follower, PrintStream out) throws InterruptedException {
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            follower.wakeup();
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consumer-example-stop"));
        try (follower) {
            long read = follower.bootstrap(START_TIMEOUT);
            out.printf("board: %d flights from %d schd records%n", follower.board().versions().size(), read);
            while (true) {
                for (var applied : follower.pollOnce(Duration.ofSeconds(1))) {
                    out.println(applied);
                }
            }
        } catch (WakeupException e) {
            var changes = follower.changes();
            out.printf("stopped: %d flights; notifications applied %d, repeats dropped %d, gaps %d; states dropped %d%n",
                    follower.board().versions().size(), changes.applied(), changes.repeatsDropped(), changes.gaps(),
                    follower.board().dropped());
        } finally {
            stopped.countDown();
        }
    }

    /** {@code --name value} pairs over the environment over the defaults. */
    private static Map<String, String> options(String[] args) {
        var options = new HashMap<String, String>();
        options.put("msg", "msgx.flight.msg");
        options.put("schd", "msgx.flight.schd");
        fromEnvironment(options, "bootstrap", "MSGX_KAFKA_BOOTSTRAP_SERVERS");
        fromEnvironment(options, "msg", "MSGX_KAFKA_TOPIC_MSG");
        fromEnvironment(options, "schd", "MSGX_KAFKA_TOPIC_SCHD");
        fromEnvironment(options, "config", "CONSUMER_CONFIG");
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }

    private static void fromEnvironment(Map<String, String> options, String name, String variable) {
        var value = System.getenv(variable);
        if (value != null && !value.isBlank()) {
            options.put(name, value);
        }
    }
}
