package io.msgx.runner.http;

import io.msgx.runner.config.Keys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The credentials in force, from {@value Keys#HTTP_CREDENTIALS_FILE} and the legacy
 * {@value Keys#HTTP_TOKEN}: read at start (a file that cannot be read stops the start, naming the line), then
 * looked at again at most every {@link #RECHECK} and read again when its time or size changed, so a credential is
 * added, rotated or revoked without a restart. A changed file that cannot be read leaves the credentials as they were
 * and is logged at ERROR once per change.
 */
public final class CredentialSource implements Supplier<Credentials> {

    /** How often the file is looked at, at most. */
    public static final Duration RECHECK = Duration.ofSeconds(2);

    /** The legacy token's credential: its name, and every role but metrics (what the one token could do). */
    public static final String LEGACY_NAME = "token";

    private static final Logger LOG = LoggerFactory.getLogger(CredentialSource.class);

    private final Path file;
    private final List<Credential> legacy;
    private final Clock clock;
    private volatile Credentials current;
    private Instant lookedAt;
    private FileTime readTime;
    private long readSize;
    private FileTime failedTime;

    /**
     * @param file  the credentials file; null when none
     * @param token the legacy single token; null when none
     * @throws IllegalArgumentException when the file cannot be read, naming the key and the line
     */
    public CredentialSource(Path file, String token, Clock clock) {
        this.file = file;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.legacy = token == null ? List.of() : List.of(new Credential(LEGACY_NAME,
                java.util.EnumSet.of(Role.READER, Role.INJECTOR, Role.OPERATOR), Credential.sha256(token)));
        this.lookedAt = clock.instant();
        if (file == null) {
            current = Credentials.of(legacy);
            return;
        }
        try {
            readTime = Files.getLastModifiedTime(file);
            readSize = Files.size(file);
            current = read();
        } catch (IOException e) {
            throw new IllegalArgumentException(Keys.HTTP_CREDENTIALS_FILE + ": cannot read " + file + " ("
                    + e + "); expected a readable file of '<name> <role>[,<role>...] sha256:<hex>' lines", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(Keys.HTTP_CREDENTIALS_FILE + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Credentials get() {
        if (file != null) {
            recheck();
        }
        return current;
    }

    private synchronized void recheck() {
        var now = clock.instant();
        if (now.isBefore(lookedAt.plus(RECHECK))) {
            return;
        }
        lookedAt = now;
        try {
            var time = Files.getLastModifiedTime(file);
            var size = Files.size(file);
            if (time.equals(readTime) && size == readSize || time.equals(failedTime)) {
                return;
            }
            try {
                var read = read();
                readTime = time;
                readSize = size;
                current = read;
                LOG.info("HTTP credentials read again from {}: {}", file, read);
            } catch (IllegalArgumentException e) {
                failedTime = time;
                LOG.error("HTTP credentials: {} changed but cannot be read ({}); the credentials stay as they were",
                        file, e.getMessage());
            }
        } catch (IOException e) {
            LOG.error("HTTP credentials: {} cannot be read ({}); the credentials stay as they were", file, e.toString());
        }
    }

    /** The file's credentials, and the legacy token's. */
    private Credentials read() throws IOException {
        return Credentials.parse(Files.readAllLines(file), file.toString()).plus(legacy);
    }

    @Override
    public String toString() {
        return (file == null ? "" : "credentials from " + file + ", ") + current;
    }
}
