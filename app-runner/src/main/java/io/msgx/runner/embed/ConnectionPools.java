package io.msgx.runner.embed;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.util.function.Consumer;

/**
 * The runner's Hikari pools (store and mailbox), all with the same bounded behaviour: no idle connections kept,
 * 10 s to get one, and no connection at build time (a database that is down is met, and reported, on first use).
 */
final class ConnectionPools {

    private ConnectionPools() {
    }

    /** A pool on {@code url}; {@code tuning} adds what one kind of database needs (driver properties, init SQL). */
    static HikariDataSource open(String name, String url, String user, String password, int size,
                                 Consumer<HikariConfig> tuning) {
        var hikari = new HikariConfig();
        hikari.setPoolName(name);
        hikari.setJdbcUrl(url);
        hikari.setUsername(user);
        hikari.setPassword(password);
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(10_000);
        hikari.setInitializationFailTimeout(-1);
        tuning.accept(hikari);
        return new HikariDataSource(hikari);
    }
}
