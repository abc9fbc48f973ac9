-- msgexchange pipeline schema for Oracle 11g, version 4: the request-tracking store (seeds §1.2, §7.2; sis-format
-- §6). REQ_TYPE holds 'RQFD' for a schedule request, the reference type (GATE, AIRL, ...) for a reference request.

-- A reference request may cover no particular operation day; a schedule request always covers one.
ALTER TABLE REQ_TRACK MODIFY (COVER_DAY NULL);
ALTER TABLE REQ_TRACK ADD CONSTRAINT CK_REQ_TRACK_SCHEDULE_DAY
    CHECK (REQ_TYPE <> 'RQFD' OR COVER_DAY IS NOT NULL);

-- How an answer was matched (EXACT by the echoed SEQN, DEGRADED by type, window and time).
ALTER TABLE REQ_TRACK ADD CONSTRAINT CK_REQ_TRACK_MATCH_MODE
    CHECK (MATCH_MODE IS NULL OR MATCH_MODE IN ('EXACT', 'DEGRADED'));

-- PG's UX_REQ_TRACK_OPEN_NO_DAY is not needed: OPEN_KEY (V1) of a request without a day is 'type||sender', so
-- UX_REQ_TRACK_OPEN already allows one open request per type and sender among them.

-- Our outbound SEQN is the reconciliation token an answer echoes (RQSN): unique, and looked up by it.
CREATE UNIQUE INDEX UX_REQ_TRACK_SEQN ON REQ_TRACK (REQ_SEQN);

-- The expiry scan (expireOpenBefore): open requests by creation time.
CREATE INDEX IX_REQ_TRACK_OPEN_CREATED ON REQ_TRACK (STATUS, CREATED_AT);
