-- Issue 22 (sis-format §8, D-60): reference data goes to Kafka through the outbox, as target KAFKA:ref.
-- One row per reference record, keyed RTYPE:RKEY (16 + 1 + 64 characters), replaced by each newer change, as
-- KAFKA:schd keeps one row per FLID; a removed record is a tombstone (no payload).
-- Widening a VARCHAR is a change of the catalogue only in PostgreSQL: no table rewrite, no index rebuilt.
-- (V10 belongs to the flight model's branch of issue 22; Flyway applies the scripts in version order.)
ALTER TABLE MSG_EVENT ALTER COLUMN PARTITION_KEY TYPE VARCHAR(81);

ALTER TABLE MSG_EVENT DROP CONSTRAINT CK_MSG_EVENT_TARGET;
ALTER TABLE MSG_EVENT ADD CONSTRAINT CK_MSG_EVENT_TARGET CHECK (TARGET IN ('KAFKA:msg', 'KAFKA:schd', 'KAFKA:ref'));

ALTER TABLE MSG_EVENT DROP CONSTRAINT CK_MSG_EVENT_PAYLOAD;
ALTER TABLE MSG_EVENT ADD CONSTRAINT CK_MSG_EVENT_PAYLOAD
    CHECK (PAYLOAD IS NOT NULL OR (TARGET IN ('KAFKA:schd', 'KAFKA:ref') AND EVENT_TYPE = 'TOMBSTONE'));

-- One row per RTYPE:RKEY on KAFKA:ref (the upsert's conflict target).
CREATE UNIQUE INDEX UX_MSG_EVENT_REF ON MSG_EVENT (PARTITION_KEY) WHERE TARGET = 'KAFKA:ref';
