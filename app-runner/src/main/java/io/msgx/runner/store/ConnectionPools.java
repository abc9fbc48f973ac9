package io.msgx.runner.store;

import com.zaxxer.hikari.HikariConfig;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The runner's pools (store and mailbox), all with the same bounded behaviour: no idle connections kept, at most
 * {@link #CONNECTION_WAIT} to get one, no connection at build time (a database that is down is met, and reported, on
 * first use), and back at once when the database is ({@link ReconnectingPool}).
 */
public final class ConnectionPools {

    private ConnectionPools() {
    }

    /**
     * How long a caller waits for a connection before its call fails as "unavailable" (D-37). Short, because the
     * caller is a job that retries at its next tick anyway, and because the first such failure is what tells the pool
     * its database went away; long enough for a busy pool to free a connection (pump and dispatcher hold one for a
     * group's transaction, well under 1 s).
     */
    public static final Duration CONNECTION_WAIT = Duration.ofSeconds(1);

    /** A pool on {@code url}; {@code tuning} adds what one kind of database needs (driver properties, init SQL). */
    public static ReconnectingPool open(String name, String url, String user, String password, int size,
                                 Consumer<HikariConfig> tuning) {
        var hikari = new HikariConfig();
        hikari.setPoolName(name);
        hikari.setJdbcUrl(url);
        hikari.setUsername(user);
        hikari.setPassword(password);
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(CONNECTION_WAIT.toMillis());
        hikari.setInitializationFailTimeout(-1);
        tuning.accept(hikari);
        return new ReconnectingPool(hikari);
    }
}
