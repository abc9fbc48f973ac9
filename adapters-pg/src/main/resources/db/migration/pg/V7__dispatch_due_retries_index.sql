-- msgexchange pipeline schema, version 7: where the due retries begin (issue 9, D-47).
--
-- A dispatch run starts where the earlier runs of its dispatcher settled, or just before the first retry that has
-- fallen due, instead of reading IX_MSG_EVENT_DISPATCH from its first entry every run (over every entry the
-- confirmations since the last VACUUM left dead). This index finds that first due retry: it holds only the rows
-- whose delivery failed and that wait for their next attempt, so neither the pump's inserts nor a confirmation
-- (NEXT_ATTEMPT_AT stays NULL) writes to it. Its predicate compares STATUS || '', which no other index matches:
-- with statistics taken before a backlog, the planner would otherwise read every pending row through
-- IX_MSG_EVENT_DISPATCH to find the few retrying ones (0.5 s at 380,000 pending rows, measured).
CREATE INDEX IX_MSG_EVENT_RETRY_DUE ON MSG_EVENT (TARGET, EVENT_ID)
    WHERE NEXT_ATTEMPT_AT IS NOT NULL AND (STATUS || '') = 'PENDING';
