-- msgexchange pipeline schema, version 1. The single source of the schema: jOOQ classes are generated from
-- this script at build time (DDLDatabase), and Flyway applies it to the configured schema.
--
-- Names are unquoted (PostgreSQL folds them to lower case) except "desc", a reserved word, which is quoted in
-- the lower case the fold would give it. Times are TIMESTAMPTZ (instants); operation days are DATE. Statements
-- jOOQ's DDL parser does not read (the seed rows) are fenced with [jooq ignore] markers.

-- ---------------------------------------------------------------------------------------------------------
-- Processing records
-- ---------------------------------------------------------------------------------------------------------

-- PROC_STATE: the processing record of every enqueued mailbox message (state, identity, retries, backfill).
CREATE TABLE PROC_STATE (
    MSG_ID                    BIGINT        NOT NULL,
    STATE                     VARCHAR(16)   NOT NULL,
    IDENTITY_KEY              VARCHAR(200)  NULL,
    ATTEMPTS                  INT           DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT           TIMESTAMPTZ   NULL,
    ERROR_CLASS               VARCHAR(16)   NULL,
    LAST_ERROR                VARCHAR(2000) NULL,
    RECEIVED_AT               TIMESTAMPTZ   NULL,
    ENQUEUED_AT               TIMESTAMPTZ   NOT NULL,
    UPDATED_AT                TIMESTAMPTZ   NOT NULL,
    BACKFILL_NEXT_AT          TIMESTAMPTZ   NULL,
    BACKFILL_AT               TIMESTAMPTZ   NULL,
    BACKFILL_ATTEMPTS         INT           DEFAULT 0 NOT NULL,
    BACKFILL_ABANDONED_AT     TIMESTAMPTZ   NULL,
    BACKFILL_ABANDONED_REASON VARCHAR(64)   NULL,
    CONSTRAINT PK_PROC_STATE PRIMARY KEY (MSG_ID),
    CONSTRAINT UK_PROC_STATE_IDENTITY UNIQUE (IDENTITY_KEY),
    CONSTRAINT CK_PROC_STATE_STATE CHECK (STATE IN ('PENDING', 'FAILED', 'SUCCEEDED', 'SKIPPED', 'DEAD', 'ARCHIVED')),
    CONSTRAINT CK_PROC_STATE_ERROR_CLASS CHECK (ERROR_CLASS IN
        ('MALFORMED', 'PROTOCOL', 'EXHAUSTED', 'INFRA', 'CODEC_ERROR', 'UNSUPPORTED', 'INTERNAL')),
    CONSTRAINT CK_PROC_STATE_ATTEMPTS CHECK (ATTEMPTS >= 0 AND BACKFILL_ATTEMPTS >= 0)
);

-- The head of the FIFO queue: the smallest open message.
CREATE INDEX IX_PROC_STATE_OPEN ON PROC_STATE (MSG_ID) WHERE STATE IN ('PENDING', 'FAILED');

-- The backfill scan: terminal messages whose mailbox mark is still owed, fewest attempts first.
CREATE INDEX IX_PROC_STATE_BACKFILL ON PROC_STATE (BACKFILL_ATTEMPTS, MSG_ID)
    WHERE STATE IN ('SUCCEEDED', 'SKIPPED', 'DEAD') AND BACKFILL_AT IS NULL AND BACKFILL_ABANDONED_AT IS NULL;

-- PROC_STATE_HST: archived processing records, moved out of PROC_STATE by the history cleanup.
CREATE TABLE PROC_STATE_HST (
    MSG_ID                    BIGINT        NOT NULL,
    STATE                     VARCHAR(16)   NOT NULL,
    IDENTITY_KEY              VARCHAR(200)  NULL,
    ATTEMPTS                  INT           DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT           TIMESTAMPTZ   NULL,
    ERROR_CLASS               VARCHAR(16)   NULL,
    LAST_ERROR                VARCHAR(2000) NULL,
    RECEIVED_AT               TIMESTAMPTZ   NULL,
    ENQUEUED_AT               TIMESTAMPTZ   NOT NULL,
    UPDATED_AT                TIMESTAMPTZ   NOT NULL,
    BACKFILL_NEXT_AT          TIMESTAMPTZ   NULL,
    BACKFILL_AT               TIMESTAMPTZ   NULL,
    BACKFILL_ATTEMPTS         INT           DEFAULT 0 NOT NULL,
    BACKFILL_ABANDONED_AT     TIMESTAMPTZ   NULL,
    BACKFILL_ABANDONED_REASON VARCHAR(64)   NULL,
    ARCHIVED_AT               TIMESTAMPTZ   NOT NULL,
    CONSTRAINT PK_PROC_STATE_HST PRIMARY KEY (MSG_ID)
);

-- ---------------------------------------------------------------------------------------------------------
-- Outbox
-- ---------------------------------------------------------------------------------------------------------

-- The one global sequence of outbox event IDs: append order is EVENT_ID order.
CREATE SEQUENCE MSG_EVENT_SEQ START WITH 1 INCREMENT BY 1;

-- MSG_EVENT: the transactional outbox (KAFKA:msg notifications, and one KAFKA:schd projection row per FLID).
CREATE TABLE MSG_EVENT (
    EVENT_ID        BIGINT        NOT NULL,
    TARGET          VARCHAR(16)   NOT NULL,
    PARTITION_KEY   VARCHAR(32)   NOT NULL,
    EVENT_TYPE      VARCHAR(16)   NOT NULL,
    STATE_VERSION   BIGINT        NOT NULL,
    MSG_ID          BIGINT        NOT NULL,
    PAYLOAD         TEXT          NULL,
    STATUS          VARCHAR(16)   NOT NULL,
    ATTEMPTS        INT           DEFAULT 0 NOT NULL,
    NEXT_ATTEMPT_AT TIMESTAMPTZ   NULL,
    LAST_ERROR      VARCHAR(2000) NULL,
    CREATED_AT      TIMESTAMPTZ   NOT NULL,
    SENT_AT         TIMESTAMPTZ   NULL,
    CONSTRAINT PK_MSG_EVENT PRIMARY KEY (EVENT_ID),
    CONSTRAINT CK_MSG_EVENT_TARGET CHECK (TARGET IN ('KAFKA:msg', 'KAFKA:schd')),
    CONSTRAINT CK_MSG_EVENT_TYPE CHECK (EVENT_TYPE IN ('UPSERT', 'TOMBSTONE')),
    CONSTRAINT CK_MSG_EVENT_STATUS CHECK (STATUS IN ('PENDING', 'SENT', 'DEAD')),
    CONSTRAINT CK_MSG_EVENT_PAYLOAD CHECK (PAYLOAD IS NOT NULL OR (TARGET = 'KAFKA:schd' AND EVENT_TYPE = 'TOMBSTONE'))
);

-- One projection row per FLID on KAFKA:schd (the upsert's conflict target).
CREATE UNIQUE INDEX UX_MSG_EVENT_SCHD ON MSG_EVENT (PARTITION_KEY) WHERE TARGET = 'KAFKA:schd';

-- The dispatcher scan: pending rows of a target in EVENT_ID order.
CREATE INDEX IX_MSG_EVENT_DISPATCH ON MSG_EVENT (STATUS, TARGET, EVENT_ID);

-- ---------------------------------------------------------------------------------------------------------
-- Requests, reference data, cursor, lock, schedule trail
-- ---------------------------------------------------------------------------------------------------------

-- REQ_TRACK: outbound schedule requests (one open request per type, covered day and sender) and their responses.
CREATE TABLE REQ_TRACK (
    ID           BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL,
    REQ_TYPE     VARCHAR(16)  NOT NULL,
    COVER_DAY    DATE         NOT NULL,
    SENDER       VARCHAR(64)  NOT NULL,
    STATUS       VARCHAR(16)  NOT NULL,
    REQ_SEQN     VARCHAR(64)  NULL,
    OUT_MSG_ID   BIGINT       NULL,
    WINDOW_START TIMESTAMPTZ  NULL,
    WINDOW_END   TIMESTAMPTZ  NULL,
    CREATED_AT   TIMESTAMPTZ  NOT NULL,
    SENT_AT      TIMESTAMPTZ  NULL,
    DONE_AT      TIMESTAMPTZ  NULL,
    RESP_MSG_ID  BIGINT       NULL,
    MATCH_MODE   VARCHAR(16)  NULL,
    CONSTRAINT PK_REQ_TRACK PRIMARY KEY (ID),
    CONSTRAINT CK_REQ_TRACK_STATUS CHECK (STATUS IN ('PENDING', 'SENT', 'DONE', 'EXPIRED'))
);

-- At most one open (PENDING or SENT) request per type, covered day and sender.
CREATE UNIQUE INDEX UX_REQ_TRACK_OPEN ON REQ_TRACK (REQ_TYPE, COVER_DAY, SENDER) WHERE STATUS IN ('PENDING', 'SENT');

-- REF_MASTER: reference data (airlines, airports, resources ...) by type and key, fields as a JSON object.
CREATE TABLE REF_MASTER (
    RTYPE      VARCHAR(16)  NOT NULL,
    RKEY       VARCHAR(64)  NOT NULL,
    FIELDS     TEXT         NOT NULL,
    MSG_ID     BIGINT       NULL,
    UPDATED_AT TIMESTAMPTZ  NOT NULL,
    CONSTRAINT PK_REF_MASTER PRIMARY KEY (RTYPE, RKEY)
);

-- INBOX_CURSOR: the single-row mailbox consumption cursor (watermark W, hole timer, cut-over seeding time).
CREATE TABLE INBOX_CURSOR (
    ID         SMALLINT     NOT NULL,
    W          BIGINT       NOT NULL,
    HOLE_SINCE TIMESTAMPTZ  NULL,
    SEEDED_AT  TIMESTAMPTZ  NULL,
    UPDATED_AT TIMESTAMPTZ  NOT NULL,
    CONSTRAINT PK_INBOX_CURSOR PRIMARY KEY (ID),
    CONSTRAINT CK_INBOX_CURSOR_SINGLE_ROW CHECK (ID = 1),
    CONSTRAINT CK_INBOX_CURSOR_W CHECK (W >= 0)
);

-- PIPELINE_LOCK: the row every flight-state writer locks (SELECT ... FOR UPDATE) for the length of its transaction.
CREATE TABLE PIPELINE_LOCK (
    NAME VARCHAR(32) NOT NULL,
    CONSTRAINT PK_PIPELINE_LOCK PRIMARY KEY (NAME)
);

/* [jooq ignore start] */
INSERT INTO INBOX_CURSOR (ID, W, HOLE_SINCE, SEEDED_AT, UPDATED_AT) VALUES (1, 0, NULL, NULL, now());
INSERT INTO PIPELINE_LOCK (NAME) VALUES ('PIPELINE');
/* [jooq ignore stop] */

-- SCHD_SNAP_LOG: the append-only trail of processed schedules (never read to decide anything).
CREATE TABLE SCHD_SNAP_LOG (
    ID          BIGINT GENERATED BY DEFAULT AS IDENTITY NOT NULL,
    MSG_ID      BIGINT       NOT NULL,
    KIND        VARCHAR(16)  NOT NULL,
    SCOPE_START DATE         NULL,
    SCOPE_END   DATE         NULL,
    FLIGHTS     INT          NOT NULL,
    CHANGED     INT          NOT NULL,
    OUTCOME     VARCHAR(16)  NOT NULL,
    RECV_AT     TIMESTAMPTZ  NOT NULL,
    CONSTRAINT PK_SCHD_SNAP_LOG PRIMARY KEY (ID)
);

CREATE INDEX IX_SCHD_SNAP_LOG_SCOPE ON SCHD_SNAP_LOG (SCOPE_END, RECV_AT);
CREATE INDEX IX_SCHD_SNAP_LOG_MSG ON SCHD_SNAP_LOG (MSG_ID);

-- ---------------------------------------------------------------------------------------------------------
-- Flight state
-- ---------------------------------------------------------------------------------------------------------

-- FLIGHT_SCHD: the authoritative main row of each flight instance; one column per scalar field (FlightField).
CREATE TABLE FLIGHT_SCHD (
    FLID          VARCHAR(32)  NOT NULL,
    STATE         VARCHAR(16)  NOT NULL,
    STATE_VERSION BIGINT       NOT NULL,
    OPERATION_DAY DATE         NULL,
    LAST_MSG_ID   BIGINT       NOT NULL,
    CREATED_AT    TIMESTAMPTZ  NOT NULL,
    UPDATED_AT    TIMESTAMPTZ  NOT NULL,
    FFID          VARCHAR(512) NULL,
    ALCD          VARCHAR(512) NULL,
    FLNO          VARCHAR(512) NULL,
    MVIN          VARCHAR(512) NULL,
    SODT          VARCHAR(512) NULL,
    FLTY          VARCHAR(512) NULL,
    FLIN          VARCHAR(512) NULL,
    ACFT          VARCHAR(512) NULL,
    RENO          VARCHAR(512) NULL,
    TRML          VARCHAR(512) NULL,
    MAXP          VARCHAR(512) NULL,
    STND          VARCHAR(512) NULL,
    RUNW          VARCHAR(512) NULL,
    FTSS          VARCHAR(512) NULL,
    EXSS          VARCHAR(512) NULL,
    REMC          VARCHAR(512) NULL,
    ESTT          VARCHAR(512) NULL,
    ACTT          VARCHAR(512) NULL,
    TAOP          VARCHAR(512) NULL,
    TAFL          VARCHAR(512) NULL,
    TAID          VARCHAR(512) NULL,
    PHAG          VARCHAR(512) NULL,
    FHAG          VARCHAR(512) NULL,
    MHAG          VARCHAR(512) NULL,
    CSOP          VARCHAR(512) NULL,
    CSFT          VARCHAR(512) NULL,
    MAID          VARCHAR(512) NULL,
    BOTM          VARCHAR(512) NULL,
    LACL          VARCHAR(512) NULL,
    FINT          VARCHAR(512) NULL,
    EOBT          VARCHAR(512) NULL,
    TOBT          VARCHAR(512) NULL,
    COBT          VARCHAR(512) NULL,
    CTOT          VARCHAR(512) NULL,
    IEST          VARCHAR(512) NULL,
    APPT          VARCHAR(512) NULL,
    EGSR          VARCHAR(512) NULL,
    EGST          VARCHAR(512) NULL,
    NEAT          VARCHAR(512) NULL,
    NAAT          VARCHAR(512) NULL,
    PEDT          VARCHAR(512) NULL,
    PADT          VARCHAR(512) NULL,
    CNCL          VARCHAR(512) NULL,
    FDIV          VARCHAR(512) NULL,
    FRET          VARCHAR(512) NULL,
    FLAB          VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_SCHD PRIMARY KEY (FLID),
    CONSTRAINT CK_FLIGHT_SCHD_STATE CHECK (STATE IN ('ACTIVE', 'DELETED')),
    CONSTRAINT CK_FLIGHT_SCHD_VERSION CHECK (STATE_VERSION >= 1)
);

-- Code-share children of a master (findChildrenOf).
CREATE INDEX IX_FLIGHT_SCHD_MAID ON FLIGHT_SCHD (MAID);
CREATE INDEX IX_FLIGHT_SCHD_OPERATION_DAY ON FLIGHT_SCHD (OPERATION_DAY);

-- FLIGHT_GTDT: the GTDT list of a flight (gate assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_GTDT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    GATE       VARCHAR(512) NULL,
    PGOT       VARCHAR(512) NULL,
    PGCT       VARCHAR(512) NULL,
    GOTM       VARCHAR(512) NULL,
    GCTM       VARCHAR(512) NULL,
    GTYP       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_GTDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_GTDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_GTDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CKDT: the CKDT list of a flight (check-in counter assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CKDT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    CHKC       VARCHAR(512) NULL,
    CCLS       VARCHAR(512) NULL,
    PCOT       VARCHAR(512) NULL,
    PCCT       VARCHAR(512) NULL,
    COTM       VARCHAR(512) NULL,
    CCTM       VARCHAR(512) NULL,
    CTYP       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_CKDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CKDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CKDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CLDT: the CLDT list of a flight (baggage reclaim belt assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CLDT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    BELT       VARCHAR(512) NULL,
    BCLS       VARCHAR(512) NULL,
    PCOT       VARCHAR(512) NULL,
    PCCT       VARCHAR(512) NULL,
    BTYP       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_CLDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CLDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CLDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_PSDT: the PSDT list of a flight (parking stand assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_PSDT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    PSST       VARCHAR(512) NULL,
    STST       VARCHAR(512) NULL,
    STET       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_PSDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_PSDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_PSDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CHDT: the CHDT list of a flight (baggage chute assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CHDT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    CHUT       VARCHAR(512) NULL,
    CCLS       VARCHAR(512) NULL,
    PCBT       VARCHAR(512) NULL,
    PCET       VARCHAR(512) NULL,
    CTYP       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_CHDT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CHDT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CHDT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_DELY: the DELY list of a flight (delay records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_DELY (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    CODE       VARCHAR(512) NULL,
    STRT       VARCHAR(512) NULL,
    DURA       VARCHAR(512) NULL,
    "desc"     VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_DELY PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_DELY_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_DELY_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_ABTM: the ABTM list of a flight (aerobridge assignments), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_ABTM (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    ABDG       VARCHAR(512) NULL,
    ABOP       VARCHAR(512) NULL,
    AOTM       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_ABTM PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_ABTM_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_ABTM_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_CHOT: the CHOT list of a flight (chocks on/off records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_CHOT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    CHTM       VARCHAR(512) NULL,
    CHID       VARCHAR(512) NULL,
    CHST       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_CHOT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_CHOT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_CHOT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_ROUTE_POINT: the points of a flight's ROUT (planned) and ERUT lists, kept apart by ROUTE_KIND.
CREATE TABLE FLIGHT_ROUTE_POINT (
    FLID       VARCHAR(32)  NOT NULL,
    ROUTE_KIND VARCHAR(4)   NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    APCD       VARCHAR(512) NULL,
    SCAT       VARCHAR(512) NULL,
    SCDT       VARCHAR(512) NULL,
    ESAT       VARCHAR(512) NULL,
    ESDT       VARCHAR(512) NULL,
    ACAT       VARCHAR(512) NULL,
    ACDT       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_ROUTE_POINT PRIMARY KEY (FLID, ROUTE_KIND, ORDINAL),
    CONSTRAINT FK_FLIGHT_ROUTE_POINT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_ROUTE_POINT_KIND CHECK (ROUTE_KIND IN ('ROUT', 'ERUT')),
    CONSTRAINT CK_FLIGHT_ROUTE_POINT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_SRVT: the SRVT list of a flight (service records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_SRVT (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    SVCD       VARCHAR(512) NULL,
    SVTM       VARCHAR(512) NULL,
    SVRM       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_SRVT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_SRVT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_SRVT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_VIPF: the VIPF list of a flight (VIP records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_VIPF (
    FLID       VARCHAR(32)  NOT NULL,
    ORDINAL    INT          NOT NULL,
    SOURCE_SEQ INT          NULL,
    VPNM       VARCHAR(512) NULL,
    VPRK       VARCHAR(512) NULL,
    VPRM       VARCHAR(512) NULL,
    CONSTRAINT PK_FLIGHT_VIPF PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_VIPF_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_VIPF_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_HST: archived flight states, one row per (FLID, STATE_VERSION), the full state as a JSON snapshot.
CREATE TABLE FLIGHT_HST (
    FLID          VARCHAR(32)  NOT NULL,
    STATE_VERSION BIGINT       NOT NULL,
    OPERATION_DAY DATE         NULL,
    STATE         VARCHAR(16)  NOT NULL,
    SNAPSHOT      TEXT         NOT NULL,
    ARCHIVED_AT   TIMESTAMPTZ  NOT NULL,
    CONSTRAINT PK_FLIGHT_HST PRIMARY KEY (FLID, STATE_VERSION)
);

CREATE INDEX IX_FLIGHT_HST_OPERATION_DAY ON FLIGHT_HST (OPERATION_DAY);
