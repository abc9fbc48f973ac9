-- msgexchange pipeline schema, version 4: the request-tracking store (seeds §1.2, §7.2; sis-format §6).
-- REQ_TYPE holds 'RQFD' for a schedule request, the reference type (GATE, AIRL, ...) for a reference request.

-- A reference request may cover no particular operation day; a schedule request always covers one.
ALTER TABLE REQ_TRACK ALTER COLUMN COVER_DAY DROP NOT NULL;
ALTER TABLE REQ_TRACK ADD CONSTRAINT CK_REQ_TRACK_SCHEDULE_DAY
    CHECK (REQ_TYPE <> 'RQFD' OR COVER_DAY IS NOT NULL);

-- How an answer was matched (EXACT by the echoed SEQN, DEGRADED by type, window and time).
ALTER TABLE REQ_TRACK ADD CONSTRAINT CK_REQ_TRACK_MATCH_MODE
    CHECK (MATCH_MODE IS NULL OR MATCH_MODE IN ('EXACT', 'DEGRADED'));

-- One open request per type and sender among the requests without a covered day (UX_REQ_TRACK_OPEN treats
-- NULL days as distinct, so it does not cover them).
CREATE UNIQUE INDEX UX_REQ_TRACK_OPEN_NO_DAY ON REQ_TRACK (REQ_TYPE, SENDER)
    WHERE STATUS IN ('PENDING', 'SENT') AND COVER_DAY IS NULL;

-- Our outbound SEQN is the reconciliation token an answer echoes (RQSN): unique, and looked up by it.
CREATE UNIQUE INDEX UX_REQ_TRACK_SEQN ON REQ_TRACK (REQ_SEQN);

-- The expiry scan (expireOpenBefore): open requests by creation time.
CREATE INDEX IX_REQ_TRACK_OPEN_CREATED ON REQ_TRACK (CREATED_AT) WHERE STATUS IN ('PENDING', 'SENT');
