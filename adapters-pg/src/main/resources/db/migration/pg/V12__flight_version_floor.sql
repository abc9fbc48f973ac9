-- Issue 33 (D-103): a FLID's STATE_VERSION never goes back, archive or not. A flight that comes back after the history
-- cleanup continues above its newest FLIGHT_HST row; once retention has deleted that row, above the highest version
-- retention ever deleted, which this single row keeps (raised before each deletion, never lowered;
-- FORGOTTEN_BEFORE is the cut-off of the last raise).
CREATE TABLE FLIGHT_HST_FORGOTTEN (
    ID                SMALLINT     NOT NULL,
    MAX_STATE_VERSION BIGINT       NOT NULL,
    FORGOTTEN_BEFORE  TIMESTAMPTZ  NULL,
    CONSTRAINT PK_FLIGHT_HST_FORGOTTEN PRIMARY KEY (ID),
    CONSTRAINT CK_FLT_HST_FORGOTTEN_ONE_ROW CHECK (ID = 1),
    CONSTRAINT CK_FLT_HST_FORGOTTEN_VERSION CHECK (MAX_STATE_VERSION >= 0)
);

/* [jooq ignore start] */
INSERT INTO FLIGHT_HST_FORGOTTEN (ID, MAX_STATE_VERSION, FORGOTTEN_BEFORE) VALUES (1, 0, NULL);
/* [jooq ignore stop] */
