-- msgexchange pipeline schema, version 5: the dispatcher claims every pending notification in EVENT_ID order
-- (IX_MSG_EVENT_DISPATCH) and leaves out the FLIDs whose head waits for a retry (D-35). Those are found here: only
-- a head that failed has NEXT_ATTEMPT_AT set, so this index stays as small as the number of retrying FLIDs.
CREATE INDEX IX_MSG_EVENT_MSG_RETRYING ON MSG_EVENT (PARTITION_KEY)
    WHERE STATUS = 'PENDING' AND TARGET = 'KAFKA:msg' AND NEXT_ATTEMPT_AT IS NOT NULL;

-- The head-per-FLID scan it served (one notification per FLID per round) is gone.
DROP INDEX IX_MSG_EVENT_MSG_HEAD;
