-- msgexchange pipeline schema for Oracle 11g, version 3: backfill reconciliation, processing-record archive, flight
-- history cleanup, retention of the history and trail tables, and the replay channel's raw copies (seeds §6, §9.3).
-- Mirrors db/migration/pg/V3 of adapters-pg; PG's partial indexes become plain composite indexes.

-- ---------------------------------------------------------------------------------------------------------
-- Backfill
-- ---------------------------------------------------------------------------------------------------------

-- BACKFILL_RECONCILIATION: an operator's audited confirmation that an abandoned mark was settled by hand. Only an
-- abandoned row has one; reopening the row deletes it; archiving the row moves it into PROC_STATE_HST.
-- NOTE: an empty note is stored as NULL (Oracle) and read back as NULL, like no note.
CREATE TABLE BACKFILL_RECONCILIATION (
    MSG_ID        NUMBER(19)          NOT NULL,
    RECONCILED_AT TIMESTAMP(6)        NOT NULL,
    OPERATOR      VARCHAR2(64 CHAR)   NOT NULL,
    NOTE          VARCHAR2(2000 CHAR) NULL,
    CONSTRAINT PK_BACKFILL_RECONCILIATION PRIMARY KEY (MSG_ID)
);

-- The reconciliation list (abandonedMarks): abandoned rows, oldest abandonment first.
CREATE INDEX IX_PROC_STATE_ABANDONED ON PROC_STATE (BACKFILL_ABANDONED_AT, MSG_ID);

-- ---------------------------------------------------------------------------------------------------------
-- Processing-record archive (PROC_STATE -> PROC_STATE_HST, dedup shadow left behind)
-- ---------------------------------------------------------------------------------------------------------

-- The archive scan (archiveCandidates): terminal rows by their last update, oldest first.
CREATE INDEX IX_PROC_STATE_ARCHIVE ON PROC_STATE (UPDATED_AT, MSG_ID);

-- The dedup memory (forgetArchivedBefore): shadows by the time they were archived. (Oracle refuses two indexes on
-- the same column list: STATE leads here.)
CREATE INDEX IX_PROC_STATE_SHADOW ON PROC_STATE (STATE, UPDATED_AT, MSG_ID);

-- The reconciliation of an abandoned mark travels with the archived record.
ALTER TABLE PROC_STATE_HST ADD (
    RECONCILED_AT       TIMESTAMP(6)        NULL,
    RECONCILED_BY       VARCHAR2(64 CHAR)   NULL,
    RECONCILIATION_NOTE VARCHAR2(2000 CHAR) NULL
);

-- The retention of archived records (deleteProcessingHistoryBefore).
CREATE INDEX IX_PROC_STATE_HST_ARCHIVED_AT ON PROC_STATE_HST (ARCHIVED_AT);

-- ---------------------------------------------------------------------------------------------------------
-- Flight history cleanup and retention
-- ---------------------------------------------------------------------------------------------------------

-- The history candidates (FlightHistory.candidates): placed flights by operation day, then last update. It
-- serves every query IX_FLIGHT_SCHD_OPERATION_DAY served, which it replaces.
DROP INDEX IX_FLIGHT_SCHD_OPERATION_DAY;
CREATE INDEX IX_FLIGHT_SCHD_HISTORY ON FLIGHT_SCHD (OPERATION_DAY, UPDATED_AT);

-- The history candidates without an operation day, by last update.
CREATE INDEX IX_FLIGHT_SCHD_UNPLACED ON FLIGHT_SCHD (UPDATED_AT);

-- The retention of archived flights (deleteFlightHistoryBefore).
CREATE INDEX IX_FLIGHT_HST_ARCHIVED_AT ON FLIGHT_HST (ARCHIVED_AT);

-- ---------------------------------------------------------------------------------------------------------
-- Request retention
-- ---------------------------------------------------------------------------------------------------------

-- DONE_AT is the close time of a closed request, DONE or EXPIRED: a closed row without it could never be
-- cleaned up, so it is refused.
ALTER TABLE REQ_TRACK ADD CONSTRAINT CK_REQ_TRACK_CLOSED_AT
    CHECK (STATUS IN ('PENDING', 'SENT') OR DONE_AT IS NOT NULL);

-- The retention of closed requests (deleteClosedRequestsBefore).
CREATE INDEX IX_REQ_TRACK_CLOSED ON REQ_TRACK (DONE_AT);

-- ---------------------------------------------------------------------------------------------------------
-- Replay channel (G-REPLAY-CHANNEL)
-- ---------------------------------------------------------------------------------------------------------

-- RAW_MSG_COPY: our own copy of each raw mailbox message for the R_keep window; written once per message.
-- TEXT is NULL-able only because Oracle stores '' as NULL: the adapter reads NULL back as the empty message ''.
CREATE TABLE RAW_MSG_COPY (
    MSG_ID  NUMBER(19)    NOT NULL,
    TEXT    CLOB          NULL,
    KEPT_AT TIMESTAMP(6)  NOT NULL,
    CONSTRAINT PK_RAW_MSG_COPY PRIMARY KEY (MSG_ID)
);

-- The retention of raw copies (deleteRawCopiesBefore).
CREATE INDEX IX_RAW_MSG_COPY_KEPT_AT ON RAW_MSG_COPY (KEPT_AT);
