-- msgexchange pipeline schema for Oracle 11g, version 12 (issue 34, D-111): our request SEQN is a bounded number that
-- cycles (default 6 digits, 000001..999999). It is unique among the open (PENDING, SENT) requests only: a closed
-- request keeps the number it was sent with, and a later request may carry it again once the cycle comes round.
DROP INDEX UX_REQ_TRACK_SEQN;

-- OPEN_SEQN: the SEQN of an open request, NULL once closed; its unique index is PG's partial UX_REQ_TRACK_OPEN_SEQN
-- (as OPEN_KEY of V1 stands for UX_REQ_TRACK_OPEN).
ALTER TABLE REQ_TRACK ADD (OPEN_SEQN VARCHAR2(64 CHAR) GENERATED ALWAYS AS (CASE WHEN STATUS IN ('PENDING', 'SENT')
    THEN REQ_SEQN END));
CREATE UNIQUE INDEX UX_REQ_TRACK_OPEN_SEQN ON REQ_TRACK (OPEN_SEQN);

-- The lookup by an answer's RQSN, closed requests included (a late answer is told which request it was for).
CREATE INDEX IX_REQ_TRACK_SEQN ON REQ_TRACK (REQ_SEQN);
