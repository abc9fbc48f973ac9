-- msgexchange pipeline schema for Oracle 11g, version 11 (issue 38, D-108): the single-active-instance lease bounded
-- in time. One row per lease: the epoch grows at every take-over, the holder renews EXPIRES_AT (the database's clock
-- decides, in UTC), a standby takes the row once it has expired, whatever state the old holder's sessions are in;
-- every write of the active instance proves in its own transaction that the row still holds its epoch (Oracle has no
-- shared row lock: FOR UPDATE, so a take-over waits for the writes in flight).
CREATE TABLE LEADER_LEASE (
    NAME        VARCHAR2(32 CHAR)  NOT NULL,
    EPOCH       NUMBER(19)         NOT NULL,
    HOLDER      VARCHAR2(200 CHAR) NULL,
    ACQUIRED_AT TIMESTAMP(6)       NULL,
    RENEWED_AT  TIMESTAMP(6)       NULL,
    EXPIRES_AT  TIMESTAMP(6)       NULL,
    CONSTRAINT PK_LEADER_LEASE PRIMARY KEY (NAME),
    CONSTRAINT CK_LEADER_LEASE_EPOCH CHECK (EPOCH >= 0)
);
INSERT INTO LEADER_LEASE (NAME, EPOCH) VALUES ('LEADER', 0);
