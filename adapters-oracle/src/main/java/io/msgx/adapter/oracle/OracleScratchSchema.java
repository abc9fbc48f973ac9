package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.StoreJdbc;

import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The throw-away schema the Oracle self-test runs the store contract suites in (D-88), on the store's own server, so
 * that the checks meet the site's Oracle (its version, parameters, character set, driver path) without touching the
 * store's tables. Two ways to have one:
 * <ul>
 *   <li>{@link #create}: an administrator (a user who may {@code CREATE USER}) makes a new user named
 *       {@code MSGX_ST_<UTC time>} with a random password and the grants the store's owner has ({@code CREATE SESSION,
 *       CREATE TABLE, CREATE SEQUENCE}); {@link #close} drops it ({@code DROP USER ... CASCADE}).</li>
 *   <li>{@link #adopt}: a DBA made an empty user for the purpose; it must own no object, and {@link #close} drops
 *       every table and sequence the run left in it, so it is empty again.</li>
 * </ul>
 *
 * <p>Not verified in our builds: H2 knows neither {@code CREATE USER ... IDENTIFIED BY} nor {@code USER_OBJECTS}. The
 * statements are few and fixed ({@link #creation}); {@code OracleScratchSchemaTest} checks their text.
 */
public final class OracleScratchSchema implements AutoCloseable {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String PASSWORD_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    /** A user that was connected a moment ago may still have a session the server has not ended yet (ORA-01940). */
    private static final int DROP_ATTEMPTS = 10;
    private static final long DROP_PAUSE_MS = 3_000;

    private final StoreJdbc owner;
    private final String user;
    private final String password;
    private final boolean created;

    private OracleScratchSchema(StoreJdbc owner, String user, String password, boolean created) {
        this.owner = owner;
        this.user = user;
        this.password = password;
        this.created = created;
    }

    /**
     * Create a new scratch user as the administrator of {@code admin}, its tables in {@code tablespace}.
     *
     * @throws IllegalArgumentException when {@code tablespace} is not an Oracle name
     */
    public static OracleScratchSchema create(DataSource admin, String tablespace, Instant now) {
        requireName(tablespace, "tablespace");
        var user = userName(now);
        var password = randomPassword();
        var sql = StoreJdbc.autoCommit(OracleDialect.ORACLE, admin);
        sql.run("creating the self-test's scratch user " + user, session -> {
            for (var statement : creation(user, password, tablespace)) {
                session.update(statement);
            }
            return null;
        });
        return new OracleScratchSchema(sql, user, password, true);
    }

    /**
     * Use {@code user}, an empty user a DBA made, logged on through {@code scratch}.
     *
     * @throws IllegalStateException when the user owns any object: the checks empty every msgexchange table, and the
     *                               end of the run drops them all
     */
    public static OracleScratchSchema adopt(DataSource scratch, String user, String password) {
        requireName(user, "scratch user");
        var sql = StoreJdbc.autoCommit(OracleDialect.ORACLE, scratch);
        var owned = sql.run("listing what the scratch user " + user + " owns", session -> session.list(
                "SELECT OBJECT_TYPE || ' ' || OBJECT_NAME AS OBJECT FROM USER_OBJECTS ORDER BY OBJECT_NAME",
                row -> row.text("OBJECT")));
        if (!owned.isEmpty()) {
            throw new IllegalStateException("the scratch user " + user + " owns " + owned.size() + " object(s) ("
                    + String.join(", ", owned.subList(0, Math.min(5, owned.size()))) + (owned.size() > 5 ? ", ..." : "")
                    + "): the self-test needs an empty user, as it empties and then drops every table it finds");
        }
        return new OracleScratchSchema(sql, user.toUpperCase(Locale.ROOT), password, false);
    }

    /** The default tablespace of the user of {@code dataSource}: where the scratch user's tables go by default. */
    public static String defaultTablespaceOf(DataSource dataSource) {
        return StoreJdbc.autoCommit(OracleDialect.ORACLE, dataSource).run("reading the store user's default tablespace",
                session -> session.one("SELECT DEFAULT_TABLESPACE FROM USER_USERS",
                        row -> row.text("DEFAULT_TABLESPACE"))).orElseThrow();
    }

    /** The scratch user's name (its schema's). */
    public String user() {
        return user;
    }

    /** Its password. */
    public String password() {
        return password;
    }

    /** For the report: who made the user, and what {@link #close} does to it. */
    public String describe() {
        return user + (created ? " (created for this run, dropped after it)"
                : " (given empty; the tables the run creates are dropped after it)");
    }

    /** Drop the scratch user (when created here) or every table and sequence it owns (when adopted). */
    @Override
    public void close() {
        if (created) {
            dropUser();
        } else {
            dropObjects();
        }
    }

    private void dropUser() {
        for (int attempt = 1; ; attempt++) {
            try {
                owner.run("dropping the self-test's scratch user " + user, session -> session.update(
                        "DROP USER " + user + " CASCADE"));
                return;
            } catch (RuntimeException e) {
                if (attempt >= DROP_ATTEMPTS || !userStillConnected(e)) {
                    throw new IllegalStateException("could not drop the scratch user " + user + " (" + e.getMessage()
                            + "): drop it by hand with DROP USER " + user + " CASCADE", e);
                }
                pause();
            }
        }
    }

    private void dropObjects() {
        owner.run("dropping the self-test's tables and sequences of " + user, session -> {
            var tables = session.list("SELECT TABLE_NAME FROM USER_TABLES", row -> row.text("TABLE_NAME"));
            for (var table : tables) {
                session.update("DROP TABLE \"" + table + "\" CASCADE CONSTRAINTS PURGE");
            }
            var sequences = session.list("SELECT SEQUENCE_NAME FROM USER_SEQUENCES", row -> row.text("SEQUENCE_NAME"));
            for (var sequence : sequences) {
                session.update("DROP SEQUENCE \"" + sequence + "\"");
            }
            return null;
        });
    }

    /** The statements that make the scratch user: the store owner's grants (adapters-oracle README), no more. */
    static List<String> creation(String user, String password, String tablespace) {
        requireName(user, "scratch user");
        requireName(tablespace, "tablespace");
        if (!password.chars().allMatch(c -> PASSWORD_LETTERS.indexOf(c) >= 0)) {
            throw new IllegalArgumentException("a scratch password holds letters and digits only");
        }
        return List.of(
                "CREATE USER " + user + " IDENTIFIED BY \"" + password + "\" DEFAULT TABLESPACE " + tablespace
                        + " QUOTA UNLIMITED ON " + tablespace,
                "GRANT CREATE SESSION, CREATE TABLE, CREATE SEQUENCE TO " + user);
    }

    /** {@code MSGX_ST_20261202101530}: the run's start in UTC, so concurrent sites' DBAs can tell whose it is. */
    static String userName(Instant now) {
        return "MSGX_ST_" + STAMP.format(now);
    }

    /** 24 letters and digits (no look-alikes), starting with a letter, as 11g's password rules allow. */
    static String randomPassword() {
        var random = new SecureRandom();
        var password = new StringBuilder("P");
        for (int i = 1; i < 24; i++) {
            password.append(PASSWORD_LETTERS.charAt(random.nextInt(PASSWORD_LETTERS.length())));
        }
        return password.toString();
    }

    private static void requireName(String name, String what) {
        Objects.requireNonNull(name, what);
        if (!OracleSchema.NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " '" + name + "': expected an Oracle name (a letter, then "
                    + "letters, digits, _, $ or #; at most 30 characters)");
        }
    }

    /** ORA-01940: cannot drop a user that is currently connected. */
    private static boolean userStillConnected(Throwable failure) {
        for (var cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == 1940) {
                return true;
            }
        }
        return false;
    }

    private static void pause() {
        try {
            Thread.sleep(DROP_PAUSE_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to drop a scratch user", e);
        }
    }
}
