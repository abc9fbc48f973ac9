-- msgexchange pipeline schema for Oracle 11g, version 5: the dispatcher claims every pending notification in
-- EVENT_ID order (IX_MSG_EVENT_DISPATCH) and leaves out the FLIDs whose head waits for a retry (D-35). Only a head
-- that failed has NEXT_ATTEMPT_AT set; 11g has no partial indexes, so the index covers the columns the sub-query
-- filters on and Oracle reads it instead of the table.
CREATE INDEX IX_MSG_EVENT_MSG_RETRYING ON MSG_EVENT (NEXT_ATTEMPT_AT, STATUS, TARGET, PARTITION_KEY);

-- The head-per-FLID scan it served (one notification per FLID per round) is gone.
DROP INDEX IX_MSG_EVENT_MSG_HEAD;
