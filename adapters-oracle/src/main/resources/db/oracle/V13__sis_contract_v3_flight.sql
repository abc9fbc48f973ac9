-- msgexchange pipeline schema for Oracle 11g, version 13: the twin of db/migration/pg/V16 of adapters-pg (issue 34,
-- sis-format v3 §10): the fields the family's own consumer code knows beyond the samples. New columns are NULL-able
-- without a default, so adding them touches no row.

-- Door open and close kept apart, the airline subcompany, local bag count and weight, passenger count.
ALTER TABLE FLIGHT_SCHD ADD (
    PORT_OPEN  VARCHAR2(512 CHAR) NULL,
    PORT_CLOSE VARCHAR2(512 CHAR) NULL,
    ALSC       VARCHAR2(512 CHAR) NULL,
    LBNO       VARCHAR2(512 CHAR) NULL,
    LBWT       VARCHAR2(512 CHAR) NULL,
    PAXC       VARCHAR2(512 CHAR) NULL
);

-- CLDT items: first and last bag times.
ALTER TABLE FLIGHT_CLDT ADD (
    FBAG VARCHAR2(512 CHAR) NULL,
    LBAG VARCHAR2(512 CHAR) NULL
);

-- ROUT and ERUT items: day change of arrival and of departure.
ALTER TABLE FLIGHT_ROUTE_POINT ADD (
    SADC VARCHAR2(512 CHAR) NULL,
    SDDC VARCHAR2(512 CHAR) NULL
);

-- VIPF items: their VIP services as a JSON array of objects (D-117); 4000 characters, the widest VARCHAR2 of 11g.
ALTER TABLE FLIGHT_VIPF ADD (
    VIPT VARCHAR2(4000 CHAR) NULL
);

-- FLIGHT_EXTENSIONS: a flight's extension document (D-120), one row per value in document order: PATH relative to the
-- record and VALUE as sent. Quoted like "DESC": VALUE is a reserved word in some SQL dialects.
CREATE TABLE FLIGHT_EXTENSIONS (
    FLID       VARCHAR2(32 CHAR)   NOT NULL,
    ORDINAL    NUMBER(10)          NOT NULL,
    SOURCE_SEQ NUMBER(10)          NULL,
    "PATH"     VARCHAR2(4000 CHAR) NULL,
    "VALUE"    VARCHAR2(4000 CHAR) NULL,
    CONSTRAINT PK_FLIGHT_EXTENSIONS PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_EXTENSIONS_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_EXTENSIONS_ORDINAL CHECK (ORDINAL >= 1)
);
