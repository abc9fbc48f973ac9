-- Issue 34 (sis-format v3 §10): the fields the family's own consumer code knows beyond the samples. Every new scalar
-- gets its column in FLIGHT_SCHD, every new item field its column in its list table. New columns are NULL-able and
-- carry no default, so adding them rewrites no row; no index is added to FLIGHT_SCHD (D-52).

-- Door open and close kept apart (PORT with POID=O and POID=C; PORT_POTM/PORT_POID stay the last one seen), the
-- airline subcompany, local bag count and weight, passenger count.
ALTER TABLE FLIGHT_SCHD ADD COLUMN PORT_OPEN VARCHAR(512) NULL;
ALTER TABLE FLIGHT_SCHD ADD COLUMN PORT_CLOSE VARCHAR(512) NULL;
ALTER TABLE FLIGHT_SCHD ADD COLUMN ALSC VARCHAR(512) NULL;
ALTER TABLE FLIGHT_SCHD ADD COLUMN LBNO VARCHAR(512) NULL;
ALTER TABLE FLIGHT_SCHD ADD COLUMN LBWT VARCHAR(512) NULL;
ALTER TABLE FLIGHT_SCHD ADD COLUMN PAXC VARCHAR(512) NULL;

-- CLDT items: first and last bag times.
ALTER TABLE FLIGHT_CLDT ADD COLUMN FBAG VARCHAR(512) NULL;
ALTER TABLE FLIGHT_CLDT ADD COLUMN LBAG VARCHAR(512) NULL;

-- ROUT and ERUT items: day change of arrival and of departure.
ALTER TABLE FLIGHT_ROUTE_POINT ADD COLUMN SADC VARCHAR(512) NULL;
ALTER TABLE FLIGHT_ROUTE_POINT ADD COLUMN SDDC VARCHAR(512) NULL;

-- VIPF items: their VIP services (repeated VIPT{VSCD, VTQY, VTST, VTET}) as a JSON array of objects (D-116).
ALTER TABLE FLIGHT_VIPF ADD COLUMN VIPT VARCHAR(4000) NULL;

-- FLIGHT_EXTENSIONS: a flight's extension document (D-119), what its records and FLOP bodies carried that the model
-- does not know, one row per value in document order: PATH relative to the record (XTRA, XTRA/@CODE, GTDT/@ZONE) and
-- VALUE as sent (NULL for an empty one). Replaced as a whole, as a list is. PATH and VALUE are quoted like "desc": the
-- statements quote every item column.
CREATE TABLE FLIGHT_EXTENSIONS (
    FLID       VARCHAR(32)   NOT NULL,
    ORDINAL    INT           NOT NULL,
    SOURCE_SEQ INT           NULL,
    "path"     VARCHAR(4000) NULL,
    "value"    VARCHAR(4000) NULL,
    CONSTRAINT PK_FLIGHT_EXTENSIONS PRIMARY KEY (FLID, ORDINAL),
    CONSTRAINT FK_FLIGHT_EXTENSIONS_FLIGHT FOREIGN KEY (FLID) REFERENCES FLIGHT_SCHD (FLID) ON DELETE CASCADE,
    CONSTRAINT CK_FLIGHT_EXTENSIONS_ORDINAL CHECK (ORDINAL >= 1)
);
