package io.msgx.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine a bench ran on, as the report records it. */
public record Machine(int cores, String cpuModel, long totalMemoryBytes, String javaVersion, String javaVm, String os,
               String postgresVersion, String mysqlVersion, String kafkaBootstrapServers) {

    static Machine describe(String postgresVersion, String mysqlVersion, String kafka) {
        return new Machine(Runtime.getRuntime().availableProcessors(), readCpuModel(), readTotalMemory(),
                System.getProperty("java.version"), System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version"), System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                postgresVersion, mysqlVersion, kafka);
    }

    private static String readCpuModel() {
        try {
            for (var line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
        return "unknown";
    }

    private static long readTotalMemory() {
        try {
            for (var line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.substring(9).trim().split("\\s+")[0]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
