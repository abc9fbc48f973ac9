-- msgexchange pipeline schema for Oracle 11g, version 2: the indexes of outbox delivery (dispatcher claims and
-- cleanup). PG's partial indexes become plain composite indexes (11g has no partial index).

-- The head of each FLID's notifications (dueNotifications): "is there an older pending notification of this
-- FLID?" is one probe of this index.
CREATE INDEX IX_MSG_EVENT_MSG_HEAD ON MSG_EVENT (PARTITION_KEY, STATUS, TARGET, EVENT_ID);

-- The cleanup (deleteSentBefore): confirmed rows by confirmation time, oldest first.
CREATE INDEX IX_MSG_EVENT_SENT ON MSG_EVENT (SENT_AT);
