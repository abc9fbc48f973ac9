-- msgexchange pipeline schema for Oracle 11g, version 6: the twin of db/migration/pg/V10 of adapters-pg (issue 22,
-- sis-format v2 §4, §5): every new flight scalar gets its column in FLIGHT_SCHD, every new item field its column in its
-- list table, and the lists PSHT and TIPT their tables. New columns are NULL-able without a default, so adding them
-- touches no row (11g: a column added with NULL and no default is a dictionary change only).

-- Exception status (EXSC, EXSR), the exception objects' attributes, PORT{POTM, POID} and the VIP counts.
ALTER TABLE FLIGHT_SCHD ADD (
    EXSC      VARCHAR2(512 CHAR) NULL,
    EXSR      VARCHAR2(512 CHAR) NULL,
    FDIV_DDES VARCHAR2(512 CHAR) NULL,
    FDIV_DDIR VARCHAR2(512 CHAR) NULL,
    FRET_REID VARCHAR2(512 CHAR) NULL,
    FLAB_ARES VARCHAR2(512 CHAR) NULL,
    PORT_POTM VARCHAR2(512 CHAR) NULL,
    PORT_POID VARCHAR2(512 CHAR) NULL,
    VIPP      VARCHAR2(512 CHAR) NULL,
    VIPR      VARCHAR2(512 CHAR) NULL
);

-- CHDT items: actual begin and end.
ALTER TABLE FLIGHT_CHDT ADD (
    CBTM VARCHAR2(512 CHAR) NULL,
    CETM VARCHAR2(512 CHAR) NULL
);

-- SRVT items, the real elements (SVCD, SVTM, SVRM stay for v1 messages).
ALTER TABLE FLIGHT_SRVT ADD (
    SRTC VARCHAR2(512 CHAR) NULL,
    SRQT VARCHAR2(512 CHAR) NULL,
    SRST VARCHAR2(512 CHAR) NULL,
    SRET VARCHAR2(512 CHAR) NULL,
    SRPR VARCHAR2(512 CHAR) NULL,
    SANR VARCHAR2(512 CHAR) NULL,
    SARR VARCHAR2(512 CHAR) NULL
);

-- VIPF items, the real elements (VPNM, VPRK, VPRM stay for v1 messages).
ALTER TABLE FLIGHT_VIPF ADD (
    VPCD VARCHAR2(512 CHAR) NULL,
    VFES VARCHAR2(512 CHAR) NULL
);

-- FLIGHT_PSHT: the PSHT list of a flight (push-back / tow records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_PSHT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    PSTM       VARCHAR2(512 CHAR) NULL,
    PSID       VARCHAR2(512 CHAR) NULL,
    PUST       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_PSHT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_PSHT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_PSHT_ORDINAL CHECK (ORDINAL >= 1)
);

-- FLIGHT_TIPT: the TIPT list of a flight (towing records), one row per item in ORDINAL order.
CREATE TABLE FLIGHT_TIPT (
    FLID       VARCHAR2(32 CHAR)  NOT NULL,
    ORDINAL    NUMBER(10)         NOT NULL,
    SOURCE_SEQ NUMBER(10)         NULL,
    TRTM       VARCHAR2(512 CHAR) NULL,
    TRST       VARCHAR2(512 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_TIPT PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_TIPT_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_TIPT_ORDINAL CHECK (ORDINAL >= 1)
);
