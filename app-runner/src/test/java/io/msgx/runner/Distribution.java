package io.msgx.runner;

import io.msgx.runner.build.BuildInfo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution archive that {@code package} built (D-76), for the {@code *IT} tests that install it as an
 * operator does: where the archives are, unpacking the tar.gz, and running a command of it.
 */
final class Distribution {

    /** The archive's top folder. */
    static final String BASE = "msgexchange-" + BuildInfo.current().version() + "/";

    private Distribution() {
    }

    /** What a command printed (stdout and stderr together), how it ended, and its PID. */
    record Result(int exit, String output, long pid) {
    }

    /** The archive of {@code format}; failsafe names its path without the extension as {@code msgx.dist.archive}. */
    static Path archive(String format) {
        var base = System.getProperty("msgx.dist.archive");
        var archive = Path.of(base + "." + format);
        assertThat(archive).as("msgx.dist.archive (" + base + "): run through 'mvn verify', which packages it before "
                + "the integration tests").exists();
        return archive;
    }

    /** Unpack the tar.gz into {@code folder}; answers the installation's home ({@code folder/msgexchange-<v>/}). */
    static Path unpack(Path folder) throws IOException, InterruptedException {
        var result = run(List.of("tar", "-xzf", archive("tar.gz").toString(), "-C", folder.toString()), Map.of(),
                Duration.ofSeconds(60));
        assertThat(result.exit()).as(result.output()).isZero();
        return folder.resolve(BASE);
    }

    /** Run {@code command} with {@code environment} added (and no JAVA_HOME unless given), for at most {@code limit}. */
    static Result run(List<String> command, Map<String, String> environment, Duration limit) throws IOException,
            InterruptedException {
        var builder = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        builder.environment().remove("JAVA_HOME");
        builder.environment().putAll(environment);
        var process = builder.start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)).as(command + " ends").isTrue();
        return new Result(process.exitValue(), output, process.pid());
    }
}
