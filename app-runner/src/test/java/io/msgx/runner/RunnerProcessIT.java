package io.msgx.runner;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.cli.Main;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;
import static io.msgx.runner.BuiltRunner.freePort;
import static io.msgx.runner.BuiltRunner.jar;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runner as an operator runs it: {@code java -jar msgexchange.jar run --config FILE} with environment
 * overrides (an integration test: it runs after {@code package} built the jar), fed through the real MariaDB mailbox and the HTTP entry, stopped with SIGTERM, killed, restarted,
 * and watched through {@code status --json} and the database.
 */
class RunnerProcessIT {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();
    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @AfterEach
    void killLeftovers() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void run_process_fifo_compat_entry_sigterm_restart_and_standby_takeover() throws Exception {
        var config = configFile();
        assertThat(Main.execute("migrate", "-c", config.toString())).isZero();

        int portA = freePort();
        var a = start(config, portA, "a");
        await("A active", () -> log("a").contains("Pipeline active"));

        long first = services.deliver(sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
        long second = services.deliver(sis.flop(io.msgx.domain.message.FlopSubtype.STND, "1001",
                SisMessages.patch("STND", "504")));
        await("two messages processed", () -> succeeded(first) && succeeded(second));

        var unauthorised = post(portA, null, sis.schedule(fltr("2001", "11MAR240900")));
        assertThat(unauthorised.statusCode()).isEqualTo(401);
        var accepted = post(portA, "s3cret", sis.schedule(fltr("2001", "11MAR240900")));
        assertThat(accepted.statusCode()).isEqualTo(202);
        long viaHttp = new ObjectMapper().readTree(accepted.body()).get("msgId").asLong();
        await("the HTTP message processed", () -> succeeded(viaHttp));

        var b = start(config, freePort(), "b");
        await("B on standby", () -> log("b").contains("hot standby"));

        a.destroyForcibly().waitFor();
        await("B takes over", () -> log("b").contains("Pipeline active"));
        long afterTakeover = services.deliver(sis.schedule(fltr("3001", "11MAR241000")));
        await("B processes", () -> succeeded(afterTakeover));

        b.destroy();
        assertThat(b.waitFor(java.util.concurrent.TimeUnit.SECONDS.toMillis(30), java.util.concurrent.TimeUnit.MILLISECONDS))
                .as("SIGTERM stops the runner").isTrue();
        assertThat(log("b")).contains("Stop requested", "Stopped");

        long whileDown = services.deliver(sis.schedule(fltr("4001", "11MAR241100")));
        start(config, freePort(), "c");
        await("a restarted runner picks up what arrived while it was down", () -> succeeded(whileDown));

        var status = statusJson(config);
        assertThat(status.get("backlog")).isEqualTo(0);
        assertThat(status.get("watermark")).isEqualTo((int) whileDown);
        assertThat(status.get("dead")).isEqualTo(0);
        assertThat(services.countInPostgres("select count(*) from proc_state where state = 'SUCCEEDED'")).isEqualTo(5);
        assertThat(services.countInPostgres("select state_version from flight_schd where flid = '1001'")).isEqualTo(2);
    }

    /**
     * D-74: a loop of {@code run} that meets a JVM Error ends the process with 70 (the service manager restarts it),
     * after the shutdown hook closed the exchange (the lease released for the standby). The Error comes from the
     * hidden, test-only {@code --test-only-fatal-error-after} (no key or variable sets it), through the same handler the
     * pipeline's loops have; that the loops hand their Errors to it is JobRunnerTest's and LivenessTest's.
     */
    @Test
    void a_fatal_error_in_a_loop_ends_run_with_exit_code_70_after_a_clean_stop() throws Exception {
        var config = configFile();
        assertThat(Main.execute("migrate", "-c", config.toString())).isZero();
        var javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var builder = new ProcessBuilder(javaBin, "-Xmx256m", "-jar", jar(), "run", "--config", config.toString(),
                "--test-only-fatal-error-after", "1500");
        builder.environment().put("MSGX_HTTP_PORT", Integer.toString(freePort()));
        builder.redirectErrorStream(true);
        builder.redirectOutput(logFile("fatal").toFile());
        var process = builder.start();
        processes.add(process);

        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).as("the process ends on its own").isTrue();
        assertThat(process.exitValue()).as(log("fatal")).isEqualTo(Main.FATAL);
        assertThat(log("fatal")).contains("Pipeline active", "FATAL: loop test-only-fault hit java.lang.AssertionError",
                "Stop requested", "Stopped");
    }

    /**
     * Issue 38: the active instance frozen (SIGSTOP: a long pause, a paused VM) under load. The standby takes over once
     * the frozen holder's lease ran out, processes what arrives, and the thawed instance commits nothing: every message
     * ends once, in mailbox order, and the flight every message changes holds exactly one version per message.
     */
    @Test
    void a_frozen_active_instance_is_replaced_within_its_lease_and_commits_nothing_once_thawed() throws Exception {
        var config = configFile();
        assertThat(Main.execute("migrate", "-c", config.toString())).isZero();
        var a = start(config, freePort(), "frozen-a");
        await("A active", () -> log("frozen-a").contains("Pipeline active"));
        start(config, freePort(), "frozen-b");
        await("B on standby", () -> log("frozen-b").contains("hot standby"));
        var ids = new ArrayList<Long>();
        ids.add(services.deliver(sis.schedule(fltr("5001", "11MAR240835", "STND", "S0"))));
        for (int n = 1; n <= 20; n++) {
            ids.add(services.deliver(sis.flop(io.msgx.domain.message.FlopSubtype.STND, "5001",
                    SisMessages.patch("STND", "S" + n))));
        }
        await("the first messages processed by A", () -> ids.stream().allMatch(this::succeeded));

        signal(a, "STOP");
        long frozenAt = System.nanoTime();
        for (int n = 21; n <= 40; n++) { // they keep coming while A is frozen
            ids.add(services.deliver(sis.flop(io.msgx.domain.message.FlopSubtype.STND, "5001",
                    SisMessages.patch("STND", "S" + n))));
        }
        await("B takes over", () -> log("frozen-b").contains("Pipeline active"));
        long takeOverMillis = (System.nanoTime() - frozenAt) / 1_000_000;
        await("B processes what arrived", () -> ids.stream().allMatch(this::succeeded));
        System.out.println("TAKEOVER frozen JVM: " + takeOverMillis + " ms (lease 3 s, standby poll 500 ms)");

        signal(a, "CONT");
        await("A, thawed, finds its lease gone", () -> log("frozen-a").contains("Leader lease")
                && (log("frozen-a").contains("lost") || log("frozen-a").contains("another instance took over")));
        for (int n = 41; n <= 45; n++) {
            ids.add(services.deliver(sis.flop(io.msgx.domain.message.FlopSubtype.STND, "5001",
                    SisMessages.patch("STND", "S" + n))));
        }
        await("the last messages processed", () -> ids.stream().allMatch(this::succeeded));

        assertThat(takeOverMillis).as("taken over within the bound (lease + poll + the lease's lock wait)")
                .isLessThan(30_000);
        assertThat(services.countInPostgres("select count(*) from proc_state where state = 'SUCCEEDED'"))
                .isEqualTo(ids.size());
        assertThat(services.countInPostgres("select state_version from flight_schd where flid = '5001'"))
                .as("one version per message: nothing applied twice").isEqualTo(ids.size());
        assertThat(services.countInPostgres("select last_msg_id from flight_schd where flid = '5001'"))
                .as("in mailbox order: the last message's change is the last").isEqualTo(ids.get(ids.size() - 1));
        assertThat(services.countInPostgres("select epoch from leader_lease where name = 'LEADER'")).isEqualTo(2);
    }

    private static void signal(Process process, String signal) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor())
                .as("kill -" + signal).isZero();
    }

    private Path configFile() throws IOException {
        var file = Files.createTempFile("msgx", ".properties");
        Files.writeString(file, String.join("\n",
                "msgx.store.url=" + io.msgx.adapter.pg.PgTestDatabase.URL,
                "msgx.store.user=postgres",
                "msgx.store.schema=" + services.postgres.schema(),
                "msgx.mailbox.url=" + services.mailboxUrl(),
                "msgx.mailbox.user=root",
                "msgx.http.token=s3cret",
                "msgx.pipeline.poll-interval=200ms",
                "msgx.jobs.standby-poll=500ms",
                // A killed holder's lease runs out, by the database's clock, before the standby takes over (D-108).
                "msgx.lease.duration=3s",
                "msgx.lease.renew-interval=1s",
                "msgx.store.idle-transaction-timeout=2s",
                "msgx.kafka.enabled=false"), StandardCharsets.UTF_8);
        file.toFile().deleteOnExit();
        return file;
    }

    private Process start(Path config, int httpPort, String name) throws IOException {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var builder = new ProcessBuilder(java, "-Xmx256m", "-jar", jar(), "run", "--config", config.toString());
        builder.environment().put("MSGX_HTTP_PORT", Integer.toString(httpPort));
        builder.redirectErrorStream(true);
        builder.redirectOutput(logFile(name).toFile());
        var process = builder.start();
        processes.add(process);
        return process;
    }

    private Map<String, Object> statusJson(Path config) throws Exception {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var process = new ProcessBuilder(java, "-jar", jar(), "status", "--json", "-c", config.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        var out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        @SuppressWarnings("unchecked")
        Map<String, Object> map = new ObjectMapper().readValue(out, Map.class);
        return map;
    }

    private HttpResponse<String> post(int port, String token, String xml) throws Exception {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/cminmsgs/send"))
                .header("Content-Type", "application/xml").POST(HttpRequest.BodyPublishers.ofString(xml));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private boolean succeeded(long id) {
        try {
            return services.countInPostgres("select count(*) from proc_state where msg_id = " + id + " and state = '"
                    + ProcStatus.SUCCEEDED + "'") == 1;
        } catch (Exception e) {
            return false;
        }
    }

    private Path logFile(String name) {
        return Path.of(System.getProperty("java.io.tmpdir"), "msgx-runner-" + services.postgres.schema() + "-" + name + ".log");
    }

    private String log(String name) {
        try {
            return Files.exists(logFile(name)) ? Files.readString(logFile(name)) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
