-- msgexchange pipeline schema for Oracle 11g, version 1: the same design as db/migration/pg/V1 of adapters-pg
-- (same tables, columns, keys and constraint names), in 11g SQL. Applied by OracleSchema.migrate, or by hand in
-- SQL*Plus (each statement ends with ';' at the end of a line; there is no PL/SQL block).
--
-- Translation rules: BIGINT -> NUMBER(19), INT -> NUMBER(10), SMALLINT -> NUMBER(5), VARCHAR(n) -> VARCHAR2(n CHAR),
-- TEXT -> CLOB, TIMESTAMPTZ -> TIMESTAMP(6) holding UTC (the adapter binds and reads UTC explicitly), DATE stays
-- DATE (midnight). Identity columns -> a sequence per table (11g has no identity columns). Partial indexes (11g has
-- none) -> plain composite indexes, and partial UNIQUE indexes -> a unique index on a virtual column that is NULL
-- outside the rows the rule covers (Oracle does not index an all-NULL key). "desc" is a reserved word: the column
-- is "DESC", quoted in upper case. Oracle stores '' as NULL: columns where the pipeline may write an empty text that
-- it must read back as '' are NULL-able here and say so (the adapter maps NULL back to '').
-- Every identifier has at most 30 characters (the 11g limit).

-- ---------------------------------------------------------------------------------------------------------
-- Processing records
-- ---------------------------------------------------------------------------------------------------------

-- PROC_STATE: the processing record of every enqueued mailbox message (state, identity, retries, backfill).
CREATE TABLE PROC_STATE (
    MSG_ID                    NUMBER(19)          NOT NULL,
    STATE                     VARCHAR2(16 CHAR)   NOT NULL,
    IDENTITY_KEY              VARCHAR2(200 CHAR)  NULL,
    ATTEMPTS                  NUMBER(10)          DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT           TIMESTAMP(6)        NULL,
    ERROR_CLASS               VARCHAR2(16 CHAR)   NULL,
    LAST_ERROR                VARCHAR2(2000 CHAR) NULL,
    RECEIVED_AT               TIMESTAMP(6)        NULL,
    ENQUEUED_AT               TIMESTAMP(6)        NOT NULL,
    UPDATED_AT                TIMESTAMP(6)        NOT NULL,
    BACKFILL_NEXT_AT          TIMESTAMP(6)        NULL,
    BACKFILL_AT               TIMESTAMP(6)        NULL,
    BACKFILL_ATTEMPTS         NUMBER(10)          DEFAULT 0 NOT NULL,
    BACKFILL_ABANDONED_AT     TIMESTAMP(6)        NULL,
    BACKFILL_ABANDONED_REASON VARCHAR2(64 CHAR)   NULL,
    CONSTRAINT PK_PROC_STATE PRIMARY KEY (MSG_ID),
    CONSTRAINT UK_PROC_STATE_IDENTITY UNIQUE (IDENTITY_KEY),
    CONSTRAINT CK_PROC_STATE_STATE CHECK (STATE IN ('PENDING', 'FAILED', 'SUCCEEDED', 'SKIPPED', 'DEAD', 'ARCHIVED')),
    CONSTRAINT CK_PROC_STATE_ERROR_CLASS CHECK (ERROR_CLASS IN
        ('MALFORMED', 'PROTOCOL', 'EXHAUSTED', 'INFRA', 'CODEC_ERROR', 'UNSUPPORTED', 'INTERNAL')),
    CONSTRAINT CK_PROC_STATE_ATTEMPTS CHECK (ATTEMPTS >= 0 AND BACKFILL_ATTEMPTS >= 0)
);

-- The head of the FIFO queue: the smallest open message (PG: a partial index on MSG_ID).
CREATE INDEX IX_PROC_STATE_OPEN ON PROC_STATE (STATE, MSG_ID);

-- The backfill scan: terminal messages whose mailbox mark is still owed, fewest attempts first.
CREATE INDEX IX_PROC_STATE_BACKFILL ON PROC_STATE (BACKFILL_ATTEMPTS, MSG_ID);

-- PROC_STATE_HST: archived processing records, moved out of PROC_STATE by the history cleanup.
CREATE TABLE PROC_STATE_HST (
    MSG_ID                    NUMBER(19)          NOT NULL,
    STATE                     VARCHAR2(16 CHAR)   NOT NULL,
    IDENTITY_KEY              VARCHAR2(200 CHAR)  NULL,
    ATTEMPTS                  NUMBER(10)          DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT           TIMESTAMP(6)        NULL,
    ERROR_CLASS               VARCHAR2(16 CHAR)   NULL,
    LAST_ERROR                VARCHAR2(2000 CHAR) NULL,
    RECEIVED_AT               TIMESTAMP(6)        NULL,
    ENQUEUED_AT               TIMESTAMP(6)        NOT NULL,
    UPDATED_AT                TIMESTAMP(6)        NOT NULL,
    BACKFILL_NEXT_AT          TIMESTAMP(6)        NULL,
    BACKFILL_AT               TIMESTAMP(6)        NULL,
    BACKFILL_ATTEMPTS         NUMBER(10)          DEFAULT 0 NOT NULL,
    BACKFILL_ABANDONED_AT     TIMESTAMP(6)        NULL,
    BACKFILL_ABANDONED_REASON VARCHAR2(64 CHAR)   NULL,
    ARCHIVED_AT               TIMESTAMP(6)        NOT NULL,
    CONSTRAINT PK_PROC_STATE_HST PRIMARY KEY (MSG_ID)
);

-- ---------------------------------------------------------------------------------------------------------
-- Outbox
-- ---------------------------------------------------------------------------------------------------------

-- The one global sequence of outbox event IDs: append order is EVENT_ID order.
CREATE SEQUENCE MSG_EVENT_SEQ START WITH 1 INCREMENT BY 1;

-- MSG_EVENT: the transactional outbox (KAFKA:msg notifications, and one KAFKA:schd projection row per FLID).
-- PAYLOAD: an empty payload is stored as NULL and read back as ''; only a KAFKA:schd tombstone reads back NULL. So
-- PG's CK_MSG_EVENT_PAYLOAD (payload present unless a projection tombstone) cannot be kept here.
-- SCHD_KEY: the FLID of a KAFKA:schd row, NULL for any other row; its unique index is PG's UX_MSG_EVENT_SCHD.
CREATE TABLE MSG_EVENT (
    EVENT_ID        NUMBER(19)          NOT NULL,
    TARGET          VARCHAR2(16 CHAR)   NOT NULL,
    PARTITION_KEY   VARCHAR2(32 CHAR)   NOT NULL,
    EVENT_TYPE      VARCHAR2(16 CHAR)   NOT NULL,
    STATE_VERSION   NUMBER(19)          NOT NULL,
    MSG_ID          NUMBER(19)          NOT NULL,
    PAYLOAD         CLOB                NULL,
    STATUS          VARCHAR2(16 CHAR)   NOT NULL,
    ATTEMPTS        NUMBER(10)          DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT TIMESTAMP(6)        NULL,
    LAST_ERROR      VARCHAR2(2000 CHAR) NULL,
    CREATED_AT      TIMESTAMP(6)        NOT NULL,
    SENT_AT         TIMESTAMP(6)        NULL,
    SCHD_KEY        VARCHAR2(32 CHAR)   GENERATED ALWAYS AS (CASE WHEN TARGET = 'KAFKA:schd' THEN PARTITION_KEY END),
    CONSTRAINT PK_MSG_EVENT PRIMARY KEY (EVENT_ID),
    CONSTRAINT CK_MSG_EVENT_TARGET CHECK (TARGET IN ('KAFKA:msg', 'KAFKA:schd')),
    CONSTRAINT CK_MSG_EVENT_TYPE CHECK (EVENT_TYPE IN ('UPSERT', 'TOMBSTONE')),
    CONSTRAINT CK_MSG_EVENT_STATUS CHECK (STATUS IN ('PENDING', 'SENT', 'DEAD'))
);

-- One projection row per FLID on KAFKA:schd (the upsert's conflict target).
CREATE UNIQUE INDEX UX_MSG_EVENT_SCHD ON MSG_EVENT (SCHD_KEY);

-- The dispatcher scan: pending rows of a target in EVENT_ID order.
CREATE INDEX IX_MSG_EVENT_DISPATCH ON MSG_EVENT (STATUS, TARGET, EVENT_ID);

-- ---------------------------------------------------------------------------------------------------------
-- Requests, reference data, cursor, lock, schedule trail
-- ---------------------------------------------------------------------------------------------------------

-- The IDs of REQ_TRACK (PG: an identity column).
CREATE SEQUENCE REQ_TRACK_SEQ START WITH 1 INCREMENT BY 1;

-- REQ_TRACK: outbound schedule requests (one open request per type, covered day and sender) and their responses.
-- OPEN_KEY: type|day|sender of an open (PENDING or SENT) request, NULL once closed; its unique index is PG's
-- UX_REQ_TRACK_OPEN and UX_REQ_TRACK_OPEN_NO_DAY together (a request without a day has the key 'type||sender').
CREATE TABLE REQ_TRACK (
    ID           NUMBER(19)         NOT NULL,
    REQ_TYPE     VARCHAR2(16 CHAR)  NOT NULL,
    COVER_DAY    DATE               NOT NULL,
    SENDER       VARCHAR2(64 CHAR)  NOT NULL,
    STATUS       VARCHAR2(16 CHAR)  NOT NULL,
    REQ_SEQN     VARCHAR2(64 CHAR)  NULL,
    OUT_MSG_ID   NUMBER(19)         NULL,
    WINDOW_START TIMESTAMP(6)       NULL,
    WINDOW_END   TIMESTAMP(6)       NULL,
    CREATED_AT   TIMESTAMP(6)       NOT NULL,
    SENT_AT      TIMESTAMP(6)       NULL,
    DONE_AT      TIMESTAMP(6)       NULL,
    RESP_MSG_ID  NUMBER(19)         NULL,
    MATCH_MODE   VARCHAR2(16 CHAR)  NULL,
    OPEN_KEY     VARCHAR2(100 CHAR) GENERATED ALWAYS AS (CASE WHEN STATUS IN ('PENDING', 'SENT')
                     THEN REQ_TYPE || '|' || TO_CHAR(COVER_DAY, 'YYYY-MM-DD') || '|' || SENDER END),
    CONSTRAINT PK_REQ_TRACK PRIMARY KEY (ID),
    CONSTRAINT CK_REQ_TRACK_STATUS CHECK (STATUS IN ('PENDING', 'SENT', 'DONE', 'EXPIRED'))
);

-- At most one open (PENDING or SENT) request per type, covered day and sender.
CREATE UNIQUE INDEX UX_REQ_TRACK_OPEN ON REQ_TRACK (OPEN_KEY);

-- REF_MASTER: reference data (airlines, airports, resources ...) by type and key, fields as a JSON object.
CREATE TABLE REF_MASTER (
    RTYPE      VARCHAR2(16 CHAR)  NOT NULL,
    RKEY       VARCHAR2(64 CHAR)  NOT NULL,
    FIELDS     CLOB               NOT NULL,
    MSG_ID     NUMBER(19)         NULL,
    UPDATED_AT TIMESTAMP(6)       NOT NULL,
    CONSTRAINT PK_REF_MASTER PRIMARY KEY (RTYPE, RKEY)
);

-- INBOX_CURSOR: the single-row mailbox consumption cursor (watermark W, hole timer, cut-over seeding time).
CREATE TABLE INBOX_CURSOR (
    ID         NUMBER(5)     NOT NULL,
    W          NUMBER(19)    NOT NULL,
    HOLE_SINCE TIMESTAMP(6)  NULL,
    SEEDED_AT  TIMESTAMP(6)  NULL,
    UPDATED_AT TIMESTAMP(6)  NOT NULL,
    CONSTRAINT PK_INBOX_CURSOR PRIMARY KEY (ID),
    CONSTRAINT CK_INBOX_CURSOR_SINGLE_ROW CHECK (ID = 1),
    CONSTRAINT CK_INBOX_CURSOR_W CHECK (W >= 0)
);

-- PIPELINE_LOCK: the row every flight-state writer locks (SELECT ... FOR UPDATE) for the length of its transaction.
CREATE TABLE PIPELINE_LOCK (
    NAME VARCHAR2(32 CHAR) NOT NULL,
    CONSTRAINT PK_PIPELINE_LOCK PRIMARY KEY (NAME)
);

INSERT INTO INBOX_CURSOR (ID, W, HOLE_SINCE, SEEDED_AT, UPDATED_AT) VALUES (1, 0, NULL, NULL, CAST(SYSTIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP));
INSERT INTO PIPELINE_LOCK (NAME) VALUES ('PIPELINE');

-- The IDs of SCHD_SNAP_LOG (PG: an identity column).
CREATE SEQUENCE SCHD_SNAP_LOG_SEQ START WITH 1 INCREMENT BY 1;

-- SCHD_SNAP_LOG: the append-only trail of processed schedules (never read to decide anything).
-- KIND and OUTCOME are NULL-able only because Oracle stores '' as NULL: the adapter reads NULL back as ''.
CREATE TABLE SCHD_SNAP_LOG (
    ID          NUMBER(19)         NOT NULL,
    MSG_ID      NUMBER(19)         NOT NULL,
    KIND        VARCHAR2(16 CHAR)  NULL,
    SCOPE_START DATE               NULL,
    SCOPE_END   DATE               NULL,
    FLIGHTS     NUMBER(10)         NOT NULL,
    CHANGED     NUMBER(10)         NOT NULL,
    OUTCOME     VARCHAR2(16 CHAR)  NULL,
    RECV_AT     TIMESTAMP(6)       NOT NULL,
    CONSTRAINT PK_SCHD_SNAP_LOG PRIMARY KEY (ID)
);

CREATE INDEX IX_SCHD_SNAP_LOG_SCOPE ON SCHD_SNAP_LOG (SCOPE_END, RECV_AT);
CREATE INDEX IX_SCHD_SNAP_LOG_MSG ON SCHD_SNAP_LOG (MSG_ID);

-- ---------------------------------------------------------------------------------------------------------
-- Flight state
-- ---------------------------------------------------------------------------------------------------------

-- FLIGHT_SCHD: the authoritative main row of each flight instance; one column per scalar field (FlightField).
-- (An empty field is no value in the domain, so '' as NULL changes nothing here.)
CREATE TABLE FLIGHT_SCHD (
    FLID          VARCHAR2(32 CHAR)  NOT NULL,
    STATE         VARCHAR2(16 CHAR)  NOT NULL,
    STATE_VERSION NUMBER(19)         NOT NULL,
    OPERATION_DAY DATE               NULL,
    LAST_MSG_ID   NUMBER(19)         NOT NULL,
    CREATED_AT    TIMESTAMP(6)       NOT NULL,
    UPDATED_AT    TIMESTAMP(6)       NOT NULL,
    FFID          VARCHAR2(512 CHAR) NULL,
    ALCD          VARCHAR2(512 CHAR) NULL,
    FLNO          VARCHAR2(512 CHAR) NULL,
    MVIN          VARCHAR2(512 CHAR) NULL,
    SODT          VARCHAR2(512 CHAR) NULL,
    FLTY          VARCHAR2(512 CHAR) NULL,
    FLIN          VARCHAR2(512 CHAR) NULL,
    ACFT          VARCHAR2(512 CHAR) NULL,
    RENO          VARCHAR2(512 CHAR) NULL,
    TRML          VARCHAR2(512 CHAR) NULL,
    MAXP          VARCHAR2(512 CHAR) NULL,
    STND          VARCHAR2(512 CHAR) NULL,
    RUNW          VARCHAR2(512 CHAR) NULL,
    FTSS          VARCHAR2(512 CHAR) NULL,
    EXSS          VARCHAR2(512 CHAR) NULL,
    REMC          VARCHAR2(512 CHAR) NULL,
    ESTT          VARCHAR2(512 CHAR) NULL,
    ACTT          VARCHAR2(512 CHAR) NULL,
    TAOP          VARCHAR2(512 CHAR) NULL,
    TAFL          VARCHAR2(512 CHAR) NULL,
    TAID          VARCHAR2(512 CHAR) NULL,
    PHAG          VARCHAR2(512 CHAR) NULL,
    FHAG          VARCHAR2(512 CHAR) NULL,
    MHAG          VARCHAR2(512 CHAR) NULL,
    CSOP          VARCHAR2(512 CHAR) NULL,
    CSFT          VARCHAR2(512 CHAR) NULL,
    MAID          VARCHAR2(512 CHAR) NULL,
    BOTM          VARCHAR2(512 CHAR) NULL,
    LACL          VARCHAR2(512 CHAR) NULL,
    FINT          VARCHAR2(512 CHAR) NULL,
    EOBT          VARCHAR2(512 CHAR) NULL,
    TOBT          VARCHAR2(512 CHAR) NULL,
    COBT          VARCHAR2(512 CHAR) NULL,
    CTOT          VARCHAR2(512 CHAR) NULL,
    IEST          VARCHAR2(512 CHAR) NULL,
    APPT          VARCHAR2(512 CHAR) NULL,
    EGSR          VARCHAR2(512 CHAR) NULL,
    EGST          VARCHAR2(512 CHAR) NULL,
    NEAT          VARCHAR2(512 CHAR) NULL,
    NAAT          VARCHAR2(512 CHAR) NULL,
    PEDT          VARCHAR2(512 CHAR) NULL,
    PADT          VARCHAR2(512 CHAR) NULL,
    CNCL          VARCHAR2(512 CHAR) NULL,
    FDIV          VARCHAR2(512 CHAR) NULL,
    FRET          VARCHAR2(512 CHAR) NULL,
    FLAB          VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_SCHD PRIMARY KEY (FLID),
    CONSTRAINT CK_FLIGHT_SCHD_STATE CHECK (STATE IN ('ACTIVE', 'DELETED')),
    CONSTRAINT CK_FLIGHT_SCHD_VERSION CHECK (STATE_VERSION >= 1)
);

-- Code-share children of a master (findChildrenOf).
CREATE INDEX IX_FLIGHT_SCHD_MAID ON FLIGHT_SCHD (MAID);
CREATE INDEX IX_FLIGHT_SCHD_OPERATION_DAY ON FLIGHT_SCHD (OPERATION_DAY);

-- FLIGHT_GTDT: the GTDT list of a flight (gate assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_GTDT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    GATE       VARCHAR2(512 CHAR) NULL,
    PGOT       VARCHAR2(512 CHAR) NULL,
    PGCT       VARCHAR2(512 CHAR) NULL,
    GOTM       VARCHAR2(512 CHAR) NULL,
    GCTM       VARCHAR2(512 CHAR) NULL,
    GTYP       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_GTDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_GTDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_GTDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CKDT: the CKDT list of a flight (check-in counter assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CKDT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    CHKC       VARCHAR2(512 CHAR) NULL,
    CCLS       VARCHAR2(512 CHAR) NULL,
    PCOT       VARCHAR2(512 CHAR) NULL,
    PCCT       VARCHAR2(512 CHAR) NULL,
    COTM       VARCHAR2(512 CHAR) NULL,
    CCTM       VARCHAR2(512 CHAR) NULL,
    CTYP       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_CKDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CKDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CKDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CLDT: the CLDT list of a flight (baggage reclaim belt assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CLDT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    BELT       VARCHAR2(512 CHAR) NULL,
    BCLS       VARCHAR2(512 CHAR) NULL,
    PCOT       VARCHAR2(512 CHAR) NULL,
    PCCT       VARCHAR2(512 CHAR) NULL,
    BTYP       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_CLDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CLDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CLDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_PSDT: the PSDT list of a flight (parking stand assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_PSDT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    PSST       VARCHAR2(512 CHAR) NULL,
    STST       VARCHAR2(512 CHAR) NULL,
    STET       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_PSDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_PSDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_PSDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CHDT: the CHDT list of a flight (baggage chute assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CHDT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    CHUT       VARCHAR2(512 CHAR) NULL,
    CCLS       VARCHAR2(512 CHAR) NULL,
    PCBT       VARCHAR2(512 CHAR) NULL,
    PCET       VARCHAR2(512 CHAR) NULL,
    CTYP       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_CHDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CHDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CHDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_DELY: the DELY list of a flight (delay records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_DELY (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    CODE       VARCHAR2(512 CHAR) NULL,
    STRT       VARCHAR2(512 CHAR) NULL,
    DURA       VARCHAR2(512 CHAR) NULL,
    "DESC"     VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_DELY PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_DELY_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_DELY_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_ABTM: the ABTM list of a flight (aerobridge assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_ABTM (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    ABDG       VARCHAR2(512 CHAR) NULL,
    ABOP       VARCHAR2(512 CHAR) NULL,
    AOTM       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_ABTM PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_ABTM_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_ABTM_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CHOT: the CHOT list of a flight (chocks on/off records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CHOT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    CHTM       VARCHAR2(512 CHAR) NULL,
    CHID       VARCHAR2(512 CHAR) NULL,
    CHST       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_CHOT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CHOT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CHOT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_ROUTE_POINT: the points of a flight's ROUT (planned) and ERUT lists, kept apart by ROUTE_KIND.
CREATE TABLE FLIGHT_ROUTE_POINT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ROUTE_KIND VARCHAR2(4 CHAR)   NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    APCD       VARCHAR2(512 CHAR) NULL,
    SCAT       VARCHAR2(512 CHAR) NULL,
    SCDT       VARCHAR2(512 CHAR) NULL,
    ESAT       VARCHAR2(512 CHAR) NULL,
    ESDT       VARCHAR2(512 CHAR) NULL,
    ACAT       VARCHAR2(512 CHAR) NULL,
    ACDT       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_ROUTE_POINT PRIMARY KEY (FLID, ROUTE_KIND, ORDINAL),
    CONSTRAINT FK_FLIGHT_ROUTE_POINT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_ROUTE_POINT_KIND CHECK (ROUTE_KIND IN ('ROUT', 'ERUT')),
    CONSTRAINT CK_FLIGHT_ROUTE_POINT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_SRVT: the SRVT list of a flight (service records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_SRVT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    SVCD       VARCHAR2(512 CHAR) NULL,
    SVTM       VARCHAR2(512 CHAR) NULL,
    SVRM       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_SRVT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_SRVT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_SRVT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_VIPF: the VIPF list of a flight (VIP records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_VIPF (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    VPNM       VARCHAR2(512 CHAR) NULL,
    VPRK       VARCHAR2(512 CHAR) NULL,
    VPRM       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_VIPF PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_VIPF_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_VIPF_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_HST: archived flight states, one row per (FLID, STATE_VERSION), the full state as a JSON snapshot.
-- SNAPSHOT is NULL-able only because Oracle stores '' as NULL.
CREATE TABLE FLIGHT_HST (
    FLID          VARCHAR2(32 CHAR)  NOT NULL,
    STATE_VERSION NUMBER(19)         NOT NULL,
    OPERATION_DAY DATE               NULL,
    STATE         VARCHAR2(16 CHAR)  NOT NULL,
    SNAPSHOT      CLOB               NULL,
    ARCHIVED_AT   TIMESTAMP(6)       NOT NULL,
    CONSTRAINT PK_FLIGHT_HST PRIMARY KEY (FLID, STATE_VERSION)
);

CREATE INDEX IX_FLIGHT_HST_OPERATION_DAY ON FLIGHT_HST (OPERATION_DAY);
