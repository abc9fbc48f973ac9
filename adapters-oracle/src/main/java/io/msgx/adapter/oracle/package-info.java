/**
 * The pipeline's store on Oracle 11g, in plain JDBC with 11g SQL: {@link io.msgx.adapter.oracle.OracleSchema} applies
 * the versioned scripts of {@code db/oracle} and checks the schema version at start-up,
 * {@link io.msgx.adapter.oracle.OraclePipelineStore} implements the store ports on the same schema design as
 * adapters-pg, and the single-active-instance lease is adapters-jdbc's {@code JdbcEpochLease} on the row of {@code LEADER_LEASE}. Everything
 * else in this package is an implementation detail.
 */
package io.msgx.adapter.oracle;
