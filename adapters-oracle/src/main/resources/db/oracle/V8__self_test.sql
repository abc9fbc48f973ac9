-- msgexchange pipeline schema for Oracle 11g, version 8 (issue 24, D-88): SELF_TEST records each run of the Oracle
-- self-test (msgexchange oracle-selftest): the store contract suites run against a scratch schema on this database's
-- server, one row per run. The runner warns at start-up until a run of its own build has passed. REPORT holds every
-- check with its outcome, as the command printed it. Oracle only: PostgreSQL is verified in every build.
CREATE SEQUENCE SELF_TEST_SEQ;
CREATE TABLE SELF_TEST (
    RUN_ID         NUMBER(19)         NOT NULL,
    BUILD_VERSION  VARCHAR2(64 CHAR)  NOT NULL,
    BUILD_COMMIT   VARCHAR2(64 CHAR)  NOT NULL,
    DATABASE_NAME  VARCHAR2(400 CHAR) NOT NULL,
    TARGET         VARCHAR2(200 CHAR) NOT NULL,
    STARTED_AT     TIMESTAMP(6)       NOT NULL,
    FINISHED_AT    TIMESTAMP(6)       NOT NULL,
    CHECKS_PASSED  NUMBER(10)         NOT NULL,
    CHECKS_FAILED  NUMBER(10)         NOT NULL,
    CHECKS_SKIPPED NUMBER(10)         NOT NULL,
    OUTCOME        VARCHAR2(6 CHAR)   NOT NULL,
    RAN_BY         VARCHAR2(64 CHAR)  NOT NULL,
    REPORT         CLOB               NULL,
    CONSTRAINT PK_SELF_TEST PRIMARY KEY (RUN_ID),
    CONSTRAINT CK_SELF_TEST_OUTCOME CHECK (OUTCOME IN ('PASSED', 'FAILED'))
);
CREATE INDEX IX_SELF_TEST_BUILD ON SELF_TEST (BUILD_VERSION, BUILD_COMMIT, OUTCOME);
