-- msgexchange pipeline schema for Oracle 11g, version 7 (issue 22, sis-format §8, D-60): reference data goes to Kafka
-- through the outbox, as target KAFKA:ref. One row per reference record, keyed RTYPE:RKEY (16 + 1 + 64 characters),
-- replaced by each newer change as KAFKA:schd keeps one row per FLID; a removed record is a tombstone (no payload).
-- A column a virtual column reads cannot be modified (ORA-54031): SCHD_KEY and its index go first and come back as
-- they were. REF_KEY is the RTYPE:RKEY of a KAFKA:ref row, NULL for any other; its unique index is PG's
-- UX_MSG_EVENT_REF.
DROP INDEX UX_MSG_EVENT_SCHD;
ALTER TABLE MSG_EVENT DROP COLUMN SCHD_KEY;
ALTER TABLE MSG_EVENT MODIFY (PARTITION_KEY VARCHAR2(81 CHAR));
ALTER TABLE MSG_EVENT ADD (SCHD_KEY VARCHAR2(32 CHAR) GENERATED ALWAYS AS (CASE WHEN TARGET = 'KAFKA:schd' THEN PARTITION_KEY END));
CREATE UNIQUE INDEX UX_MSG_EVENT_SCHD ON MSG_EVENT (SCHD_KEY);
ALTER TABLE MSG_EVENT ADD (REF_KEY VARCHAR2(81 CHAR) GENERATED ALWAYS AS (CASE WHEN TARGET = 'KAFKA:ref' THEN PARTITION_KEY END));
CREATE UNIQUE INDEX UX_MSG_EVENT_REF ON MSG_EVENT (REF_KEY);

ALTER TABLE MSG_EVENT DROP CONSTRAINT CK_MSG_EVENT_TARGET;
ALTER TABLE MSG_EVENT ADD CONSTRAINT CK_MSG_EVENT_TARGET CHECK (TARGET IN ('KAFKA:msg', 'KAFKA:schd', 'KAFKA:ref'));
