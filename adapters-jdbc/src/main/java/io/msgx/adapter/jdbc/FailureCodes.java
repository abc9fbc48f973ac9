package io.msgx.adapter.jdbc;

import java.sql.SQLException;
import java.util.Objects;
import java.util.Set;

/**
 * How one database says, beyond what JDBC says for every database, that it is not there right now, that it rolled
 * back our work for another transaction's sake, or that a row's key is taken: the codes {@link StoreFailures} sorts a
 * failure by. {@link #POSTGRESQL} and {@link #ORACLE} are the stores' codes.
 *
 * @param database       the database's name in the failures' messages ({@code PostgreSQL}, {@code Oracle})
 * @param unavailable    "not there right now" (beyond SQLState class {@code 08} and the JDBC connection, timeout and
 *                       recoverable exceptions, which mean it for every database)
 * @param conflict       work rolled back to break a deadlock or a serialization conflict
 * @param uniqueKey      a unique or primary-key violation; a vendor code counts here only with a SQLState of class
 *                       {@code 23} (integrity constraint violation)
 * @param standInDrivers name prefixes of the exception classes of a database that stands in for this one in tests
 *                       (H2 in Oracle mode for Oracle): they carry that database's own vendor codes, which mean
 *                       something else here, so only their SQLStates count
 */
public record FailureCodes(String database, Codes unavailable, Codes conflict, Codes uniqueKey,
                           Set<String> standInDrivers) {

    /**
     * PostgreSQL's: query cancelled by {@code statement_timeout} ({@code 57014}), lock wait timed out
     * ({@code 55P03}), the server shutting down or starting up ({@code 57P01}, {@code 57P02}, {@code 57P03});
     * serialization failure ({@code 40001}) and deadlock detected ({@code 40P01}); unique violation
     * ({@code 23505}). Its driver reports no vendor codes.
     */
    public static final FailureCodes POSTGRESQL = new FailureCodes("PostgreSQL",
            new Codes(Set.of("57014", "55P03", "57P01", "57P02", "57P03"), Set.of()),
            new Codes(Set.of("40001", "40P01"), Set.of()),
            new Codes(Set.of("23505"), Set.of()),
            Set.of());

    /**
     * Oracle's. Unavailable: resource busy (NOWAIT / WAIT n expired), session killed, not logged on, user requested
     * cancel (a query timeout), the instance starting, shutting down or gone, end of file on the communication
     * channel, the listener refusing, the connection lost, closed or timed out in the driver; and H2's lock timeout
     * ({@code HYT00}) for the stand-in. Conflict: deadlock detected (ORA-00060: Oracle rolls back only the statement;
     * the transaction around it is rolled back by its caller), can't serialize access (ORA-08177), and SQLStates
     * {@code 40001} (H2's deadlock) and {@code 40P01}. Unique key: ORA-00001, or SQLState {@code 23505} (H2).
     * H2's own codes are not Oracle's.
     */
    public static final FailureCodes ORACLE = new FailureCodes("Oracle",
            new Codes(Set.of("HYT00"), Set.of(
                    54, 28, 1012, 1013, 1033, 1034, 1089, 1090, 1092, 2396, 3113, 3114, 3135, 12170, 12514, 12516,
                    12520, 12521, 12528, 12537, 12541, 12543, 12571, 25408, 30006, 17002, 17008, 17009, 17410, 17447)),
            new Codes(Set.of("40001", "40P01"), Set.of(60, 8177)),
            new Codes(Set.of("23505"), Set.of(1)),
            Set.of("org.h2."));

    public FailureCodes {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(unavailable, "unavailable");
        Objects.requireNonNull(conflict, "conflict");
        Objects.requireNonNull(uniqueKey, "uniqueKey");
        standInDrivers = Set.copyOf(standInDrivers);
    }

    /** Whether {@code e}'s vendor code is this database's, i.e. it was not thrown by a stand-in's driver. */
    boolean speaksFor(SQLException e) {
        var type = e.getClass().getName();
        return standInDrivers.stream().noneMatch(type::startsWith);
    }

    /**
     * The SQLStates and vendor codes ({@link SQLException#getErrorCode()}: the ORA number on Oracle) of one kind of
     * failure.
     */
    public record Codes(Set<String> sqlStates, Set<Integer> vendorCodes) {

        public Codes {
            sqlStates = Set.copyOf(sqlStates);
            vendorCodes = Set.copyOf(vendorCodes);
        }
    }
}
