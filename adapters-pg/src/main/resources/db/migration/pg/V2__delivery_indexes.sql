-- msgexchange pipeline schema, version 2: the indexes of outbox delivery (dispatcher claims and cleanup).

-- The head of each FLID's notifications (dueNotifications): "is there an older pending notification of this
-- FLID?" is one probe of this index, whatever the size of the backlog.
CREATE INDEX IX_MSG_EVENT_MSG_HEAD ON MSG_EVENT (PARTITION_KEY, EVENT_ID)
    WHERE STATUS = 'PENDING' AND TARGET = 'KAFKA:msg';

-- The cleanup (deleteSentBefore): confirmed rows by confirmation time, oldest first.
CREATE INDEX IX_MSG_EVENT_SENT ON MSG_EVENT (SENT_AT) WHERE STATUS = 'SENT';
