package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.port.FlightHistory;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;

import static io.msgx.adapter.pg.jooq.Tables.FLIGHT_HST;
import static io.msgx.adapter.pg.jooq.Tables.FLIGHT_SCHD;
import static org.jooq.impl.DSL.inline;

/**
 * {@link FlightHistory} on {@code FLIGHT_SCHD} and {@code FLIGHT_HST}, bound to one transaction. The writes
 * ({@link #archive}, {@link #delete}) refuse to run outside a locked transaction: the cleanup is the second writer of
 * flight tables and must be serialised with the processors by {@code PIPELINE_LOCK} (INV-18).
 *
 * <p>An archive that finds the flight's version archived already fails with the database's unique violation and
 * leaves the transaction aborted, so nothing after it (the delete) can commit: archive first, delete after, both or
 * neither (D1).
 */
final class PgFlightHistory implements FlightHistory {

    /** SQLState of a unique violation. */
    private static final String UNIQUE_VIOLATION = "23505";

    private final DSLContext dsl;
    private final BooleanSupplier locked;

    PgFlightHistory(DSLContext dsl, BooleanSupplier locked) {
        this.dsl = dsl;
        this.locked = locked;
    }

    @Override
    public List<FlightId> candidates(LocalDate operationDayBefore, Instant unplacedBefore, Instant quietBefore,
                                     int limit) {
        Objects.requireNonNull(operationDayBefore, "operationDayBefore");
        Objects.requireNonNull(unplacedBefore, "unplacedBefore");
        Objects.requireNonNull(quietBefore, "quietBefore");
        if (limit < 1) {
            throw new IllegalArgumentException("a batch limit is at least 1, got " + limit);
        }
        var day = FLIGHT_SCHD.OPERATION_DAY;
        var updated = FLIGHT_SCHD.UPDATED_AT;
        return StoreOperation.run("listing flights past their life (operation day before " + operationDayBefore + ")",
                () -> dsl.select(FLIGHT_SCHD.FLID)
                        .from(FLIGHT_SCHD)
                        // past their life: an operation day before the cutoff, or no day and no update for long
                        .where(day.lt(operationDayBefore).or(day.isNull().and(updated.lt(unplacedBefore))))
                        // and evidence that they ended: deleted, or quiet
                        .and(FLIGHT_SCHD.STATE.eq(inline(FlightStatus.DELETED.name())).or(updated.lt(quietBefore)))
                        .orderBy(updated.asc(), FLIGHT_SCHD.FLID.asc())
                        .limit(limit)
                        .fetch(row -> FlightId.of(row.value1())));
    }

    @Override
    public void archive(FlightState flight, String snapshot, Instant at) {
        Objects.requireNonNull(flight, "flight");
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(at, "at");
        requireLocked("archive FLID " + flight.flid());
        StoreOperation.run("archiving FLID " + flight.flid() + " version " + flight.stateVersion(), () -> {
            try {
                return dsl.insertInto(FLIGHT_HST)
                        .set(FLIGHT_HST.FLID, flight.flid().value())
                        .set(FLIGHT_HST.STATE_VERSION, flight.stateVersion())
                        .set(FLIGHT_HST.OPERATION_DAY, flight.operationDay() == null ? null : flight.operationDay().date())
                        .set(FLIGHT_HST.STATE, flight.status().name())
                        .set(FLIGHT_HST.SNAPSHOT, snapshot)
                        .set(FLIGHT_HST.ARCHIVED_AT, at)
                        .execute();
            } catch (DataAccessException e) {
                if (UNIQUE_VIOLATION.equals(e.sqlState())) {
                    throw new IllegalStateException("FLID " + flight.flid() + " version " + flight.stateVersion()
                            + " is in FLIGHT_HST already: this transaction is aborted and deletes nothing", e);
                }
                throw e;
            }
        });
    }

    @Override
    public void delete(FlightId flid) {
        Objects.requireNonNull(flid, "flid");
        requireLocked("delete FLID " + flid);
        StoreOperation.run("deleting FLID " + flid, () -> {
            for (var table : ListTable.ALL) {
                dsl.deleteFrom(table.table()).where(table.flid().eq(flid.value())).execute();
            }
            return dsl.deleteFrom(FLIGHT_SCHD).where(FLIGHT_SCHD.FLID.eq(flid.value())).execute();
        });
    }

    private void requireLocked(String what) {
        if (!locked.getAsBoolean()) {
            throw new IllegalStateException("the history cleanup may " + what + " only inside inLockedTransaction: "
                    + "it must hold PIPELINE_LOCK against the processors (INV-18)");
        }
    }
}
