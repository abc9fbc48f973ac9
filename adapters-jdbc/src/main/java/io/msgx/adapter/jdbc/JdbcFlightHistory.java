package io.msgx.adapter.jdbc;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.port.FlightHistory;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@link FlightHistory} on {@code FLIGHT_SCHD} and {@code FLIGHT_HST}, bound to one transaction. The writes
 * ({@link #archive}, {@link #delete}) refuse to run outside a locked transaction: the cleanup is the second writer of
 * flight tables and must be serialised with the processors by {@code PIPELINE_LOCK} (INV-18).
 *
 * <p>An archive that finds the flight's version archived already fails, and marks the transaction rollback-only:
 * Oracle, unlike PostgreSQL (which aborts it), would otherwise keep the transaction and let a later delete commit.
 * Archive first, delete after, both or neither (D1). An empty snapshot is stored as NULL (Oracle's '').
 */
public final class JdbcFlightHistory implements FlightHistory {

    /**
     * Past their life: an operation day before the cutoff, or no day and no update for long; and evidence that they
     * ended: deleted, or quiet. Parameters: operation day before, unplaced before, quiet before.
     */
    private static final String ENDED = "(OPERATION_DAY < ? OR (OPERATION_DAY IS NULL AND UPDATED_AT < ?))"
            + " AND (STATE = 'DELETED' OR UPDATED_AT < ?)";

    private final StoreJdbc sql;
    private final BooleanSupplier locked;
    private final Consumer<String> rollbackOnly;

    public JdbcFlightHistory(StoreJdbc sql, BooleanSupplier locked, Consumer<String> rollbackOnly) {
        this.sql = sql;
        this.locked = locked;
        this.rollbackOnly = rollbackOnly;
    }

    @Override
    public List<FlightId> candidates(LocalDate operationDayBefore, Instant unplacedBefore, Instant quietBefore,
                                     int limit) {
        Objects.requireNonNull(operationDayBefore, "operationDayBefore");
        Objects.requireNonNull(unplacedBefore, "unplacedBefore");
        Objects.requireNonNull(quietBefore, "quietBefore");
        StoreJdbc.requireLimit(limit);
        return sql.run("listing flights past their life (operation day before " + operationDayBefore + ")",
                session -> session.list(sql.firstRows("SELECT FLID FROM FLIGHT_SCHD WHERE " + ENDED
                                + " ORDER BY UPDATED_AT, FLID"),
                        row -> FlightId.of(row.text("FLID")), operationDayBefore, unplacedBefore, quietBefore, limit));
    }

    @Override
    public boolean isCandidate(FlightId flid, LocalDate operationDayBefore, Instant unplacedBefore,
                               Instant quietBefore) {
        Objects.requireNonNull(flid, "flid");
        return sql.run("checking that FLID " + flid + " is past its life", session -> session.one(
                "SELECT FLID FROM FLIGHT_SCHD WHERE FLID = ? AND " + ENDED, row -> row.text("FLID"), flid.value(),
                operationDayBefore, unplacedBefore, quietBefore).isPresent());
    }

    @Override
    public void archive(FlightState flight, String snapshot, Instant at) {
        Objects.requireNonNull(flight, "flight");
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(at, "at");
        requireLocked("archive FLID " + flight.flid());
        sql.run("archiving FLID " + flight.flid() + " version " + flight.stateVersion(), session -> {
            try {
                return session.update("INSERT INTO FLIGHT_HST (FLID, STATE_VERSION, OPERATION_DAY, STATE, SNAPSHOT,"
                                + " ARCHIVED_AT) VALUES (?, ?, ?, ?, ?, ?)",
                        flight.flid().value(), flight.stateVersion(),
                        flight.operationDay() == null ? null : flight.operationDay().date(), flight.status().name(),
                        new StoreJdbc.LongText(snapshot), at);
            } catch (SQLException e) {
                if (sql.failures().isUniqueViolation(e)) {
                    var reason = "FLID " + flight.flid() + " version " + flight.stateVersion()
                            + " is in FLIGHT_HST already";
                    rollbackOnly.accept(reason);
                    throw new IllegalStateException(reason + ": this transaction is rolled back and deletes nothing",
                            e);
                }
                throw e;
            }
        });
    }

    @Override
    public void delete(FlightId flid) {
        Objects.requireNonNull(flid, "flid");
        requireLocked("delete FLID " + flid);
        sql.run("deleting FLID " + flid, session -> {
            for (var table : FlightTables.ALL) {
                session.update("DELETE FROM " + table.table() + " WHERE FLID = ?", flid.value());
            }
            return session.update("DELETE FROM FLIGHT_SCHD WHERE FLID = ?", flid.value());
        });
    }

    private void requireLocked(String what) {
        if (!locked.getAsBoolean()) {
            throw new IllegalStateException("the history cleanup may " + what + " only inside inLockedTransaction: "
                    + "it must hold PIPELINE_LOCK against the processors (INV-18)");
        }
    }
}
