package io.msgx.runner.build;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * This build: its version and, when the build was given one ({@code -Dmsgx.build.commit=...}), the commit it was built
 * from. Read from {@code io/msgx/runner/build.properties}, which the build fills in (the same version is the jar
 * manifest's {@code Implementation-Version}). Shown by {@code --version}, in the start-up line and as the
 * {@code msgx.build.info} gauge.
 */
public record BuildInfo(String version, String commit) {

    /** What a value the build did not fill in reads as. */
    public static final String UNKNOWN = "unknown";

    private static final String RESOURCE = "/io/msgx/runner/build.properties";

    /** The build this class was built in. */
    public static BuildInfo current() {
        var properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + " from the runner's jar", e);
        }
        return new BuildInfo(filled(properties.getProperty("version")), filled(properties.getProperty("commit")));
    }

    /** A value the build filled in, or {@value #UNKNOWN} (absent, blank, or a placeholder left as it was). */
    private static String filled(String value) {
        return value == null || value.isBlank() || value.contains("${") ? UNKNOWN : value.strip();
    }

    /** {@code 0.1.0 (commit 1a2b3c4)}, or the version alone when the commit is not known. */
    public String describe() {
        return UNKNOWN.equals(commit) ? version : version + " (commit " + commit + ")";
    }
}
