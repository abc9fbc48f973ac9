-- Issue 38 (D-108): the single-active-instance lease bounded in time. One row per lease: the epoch grows at every
-- take-over, the holder renews EXPIRES_AT (the database's clock decides), a standby takes the row once it has expired,
-- whatever state the old holder's sessions are in; every write of the active instance proves in its own transaction
-- that the row still holds its epoch (a shared row lock, so a take-over waits for the writes in flight).
CREATE TABLE LEADER_LEASE (
    NAME        VARCHAR(32)  NOT NULL,
    EPOCH       BIGINT       NOT NULL,
    HOLDER      VARCHAR(200) NULL,
    ACQUIRED_AT TIMESTAMPTZ  NULL,
    RENEWED_AT  TIMESTAMPTZ  NULL,
    EXPIRES_AT  TIMESTAMPTZ  NULL,
    CONSTRAINT PK_LEADER_LEASE PRIMARY KEY (NAME),
    CONSTRAINT CK_LEADER_LEASE_EPOCH CHECK (EPOCH >= 0)
);

/* [jooq ignore start] */
INSERT INTO LEADER_LEASE (NAME, EPOCH) VALUES ('LEADER', 0);
/* [jooq ignore stop] */
