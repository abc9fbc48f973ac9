package io.msgx.tools.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One {@code java -jar msgexchange.jar run --config FILE} process, started directly (no shell in between), so
 * {@link Process#pid()} is the runner's JVM and {@link #kill()} sends SIGKILL to the runner itself: no shutdown
 * hook runs, no transaction is finished, the operating system closes its sockets. Its output goes to its own log
 * file, which tells when the pipeline became active.
 */
public final class RunnerProcess {

    /** The line {@code MsgExchange} logs once it holds the lease and its jobs run. */
    static final String ACTIVE = "Pipeline active";
    /** The exit status of a process ended by signal 9 (128 + 9). */
    static final int KILLED_BY_SIGKILL = 137;

    private final Process process;
    private final Path log;

    private RunnerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Start the runner on {@code config} (which should name HTTP port 0: any free port), output to {@code log}. */
    public static RunnerProcess start(Path jar, Path config, Path log) {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // A small heap and the C1 compiler only: the runner is started over and over, so start-up time counts.
        var builder = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-jar", jar.toString(), "run", "--config", config.toString());
        builder.redirectErrorStream(true);
        builder.redirectOutput(log.toFile());
        try {
            return new RunnerProcess(builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the runner " + jar, e);
        }
    }

    public long pid() {
        return process.pid();
    }

    /** True once the runner logged that its pipeline is active (it holds the lease, its jobs run). */
    public boolean isActive() {
        return logText().contains(ACTIVE);
    }

    /** Poll the log until the pipeline is active; false if it was not within {@code timeout} or the process ended. */
    public boolean awaitActive(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (isActive()) {
                return true;
            }
            if (!process.isAlive()) {
                return false;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /**
     * SIGKILL ({@link Process#destroyForcibly()} on the runner's own pid), then wait for it to be gone; returns
     * its exit status, {@value #KILLED_BY_SIGKILL} when the signal ended it.
     */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("runner " + pid() + " still alive 30 s after SIGKILL; see " + log);
        }
        return process.exitValue();
    }

    /** SIGTERM, as an operator stops it: the runner finishes the message in hand and stops. True if it ended. */
    public boolean stop(Duration timeout) throws InterruptedException {
        process.destroy();
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGSTOP: the whole JVM stands still (a long pause, a swap storm, a paused VM), its sockets open. */
    public void freeze() throws InterruptedException, IOException {
        signal("STOP");
    }

    /** SIGCONT: the frozen JVM goes on where it stood, unaware of the time that passed. */
    public void thaw() throws InterruptedException, IOException {
        signal("CONT");
    }

    private void signal(String name) throws InterruptedException, IOException {
        int status = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).start().waitFor();
        if (status != 0) {
            throw new IllegalStateException("kill -" + name + " " + pid() + " ended with " + status);
        }
    }

    /** How many times the runner's pipeline became active (it may lose the lease and take it again). */
    public int timesActive() {
        return timesLogged(ACTIVE);
    }

    /** How many times the runner's output holds {@code text} so far. */
    public int timesLogged(String text) {
        return logText().split(java.util.regex.Pattern.quote(text), -1).length - 1;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** The process's output so far (empty when the file is not there yet). */
    public String logText() {
        try {
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            return "";
        }
    }
}
