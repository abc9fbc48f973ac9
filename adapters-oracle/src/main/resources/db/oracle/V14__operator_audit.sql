-- msgexchange pipeline schema for Oracle 11g, version 14 (issue 36, D-137..D-139): OPERATOR_AUDIT, the append-only
-- trail of operator actions from the console and the CLI (PostgreSQL's V17; the two streams number differently,
-- issue 37). A row is written in the transaction of the action's own change; the application never updates one, and
-- only the retention (msgx.audit.retention) deletes rows, the oldest first. Unlike PostgreSQL no trigger refuses an
-- UPDATE here (these scripts hold no PL/SQL): a site that wants it enforced revokes UPDATE from every user but the
-- owner, or adds the trigger of docs/operations.md ("Audit trail") as a DBA.
-- ITEMS, CHANGED, REFUSED and DETAIL are CLOBs: a replay of 500 IDs is recorded whole (VARCHAR2 stops at 4000 bytes).

-- The IDs of OPERATOR_AUDIT (PG: an identity column).
CREATE SEQUENCE OPERATOR_AUDIT_SEQ START WITH 1 INCREMENT BY 1;

CREATE TABLE OPERATOR_AUDIT (
    ID          NUMBER(19)          NOT NULL,
    RECORDED_AT TIMESTAMP(6)        NOT NULL,
    OPERATOR    VARCHAR2(64 CHAR)   NOT NULL,
    CHANNEL     VARCHAR2(16 CHAR)   NOT NULL,
    ORIGIN      VARCHAR2(255 CHAR)  NOT NULL,
    ACTION      VARCHAR2(32 CHAR)   NOT NULL,
    ITEMS       CLOB                NULL,
    OUTCOME     VARCHAR2(16 CHAR)   NOT NULL,
    CHANGED     CLOB                NULL,
    REFUSED     CLOB                NULL,
    DETAIL      CLOB                NULL,
    CONSTRAINT PK_OPERATOR_AUDIT PRIMARY KEY (ID),
    CONSTRAINT CK_OPERATOR_AUDIT_CHANNEL CHECK (CHANNEL IN ('cli', 'console')),
    CONSTRAINT CK_OPERATOR_AUDIT_OUTCOME CHECK (OUTCOME IN ('DONE', 'PARTLY', 'REFUSED'))
);

-- Newest first (the CLI's audit, the console's page) and the retention (oldest first).
CREATE INDEX IX_OPERATOR_AUDIT_RECORDED_AT ON OPERATOR_AUDIT (RECORDED_AT, ID);
