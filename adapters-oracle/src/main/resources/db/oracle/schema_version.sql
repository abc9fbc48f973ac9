-- MSGX_SCHEMA_VERSION: which of the versioned scripts V<n>__*.sql of this folder were applied to this schema, one row
-- per script, created by OracleSchema.migrate before V1 (or by hand, first). CHECKSUM is the CRC-32 of the script's
-- text with '\n' line ends; a row written by hand may leave it NULL (then only the version is checked).
CREATE TABLE MSGX_SCHEMA_VERSION (
    VERSION      NUMBER(10)         NOT NULL,
    DESCRIPTION  VARCHAR2(200 CHAR) NOT NULL,
    SCRIPT       VARCHAR2(200 CHAR) NOT NULL,
    CHECKSUM     NUMBER(19)         NULL,
    INSTALLED_AT TIMESTAMP(6)       NOT NULL,
    CONSTRAINT PK_MSGX_SCHEMA_VERSION PRIMARY KEY (VERSION)
);
