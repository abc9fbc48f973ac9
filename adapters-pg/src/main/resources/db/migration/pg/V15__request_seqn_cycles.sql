-- msgexchange pipeline schema, version 15 (issue 34, D-111): our request SEQN is a bounded number that cycles
-- (default 6 digits, 000001..999999). It is unique among the open (PENDING, SENT) requests only: a closed request keeps
-- the number it was sent with, and a later request may carry it again once the cycle comes round.
DROP INDEX UX_REQ_TRACK_SEQN;

-- At most one open request per SEQN: the one an answer's RQSN names.
CREATE UNIQUE INDEX UX_REQ_TRACK_OPEN_SEQN ON REQ_TRACK (REQ_SEQN) WHERE STATUS IN ('PENDING', 'SENT');

-- The lookup by an answer's RQSN, closed requests included (a late answer is told which request it was for).
CREATE INDEX IX_REQ_TRACK_SEQN ON REQ_TRACK (REQ_SEQN);
