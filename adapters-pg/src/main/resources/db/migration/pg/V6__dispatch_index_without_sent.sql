-- msgexchange pipeline schema, version 6: the dispatcher's index leaves out delivered rows (issue 9).
--
-- IX_MSG_EVENT_DISPATCH held every row, SENT ones included, so confirming a delivery (STATUS PENDING -> SENT) wrote a
-- new entry into it for every row confirmed, next to the primary key and IX_MSG_EVENT_SENT: three index entries a
-- row, for an index nobody reads SENT rows through (the claims read PENDING rows, the backlog counts PENDING and DEAD,
-- the cleanup goes through IX_MSG_EVENT_SENT). Now a confirmation writes two, and the claims read an index as small as
-- the undelivered rows.
DROP INDEX IX_MSG_EVENT_DISPATCH;
CREATE INDEX IX_MSG_EVENT_DISPATCH ON MSG_EVENT (STATUS, TARGET, EVENT_ID) WHERE STATUS IN ('PENDING', 'DEAD');
