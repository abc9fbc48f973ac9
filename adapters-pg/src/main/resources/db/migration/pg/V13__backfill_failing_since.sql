-- Issue 33 (D-104): the abandonment deadline R of a mailbox mark counts from the mark's first transient failure, not
-- from the message's enqueue, so a message that ends long after it was enqueued (a backlog, a cut-over) is not
-- abandoned at its first failure. BACKFILL_FAILING_SINCE is the time of the first failure of the mark still owed:
-- set by the first failure and kept by the later ones; cleared when the mark is confirmed, when an operator reopens
-- it, by a replay and in the dedup shadow. The archive keeps it in PROC_STATE_HST with the other columns.
ALTER TABLE PROC_STATE ADD COLUMN BACKFILL_FAILING_SINCE TIMESTAMPTZ NULL;
ALTER TABLE PROC_STATE_HST ADD COLUMN BACKFILL_FAILING_SINCE TIMESTAMPTZ NULL;
