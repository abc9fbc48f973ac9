/**
 * The pipeline's store on a JDBC database, written once for PostgreSQL (adapters-pg) and Oracle 11g
 * (adapters-oracle) in plain {@code java.sql}: {@link io.msgx.adapter.jdbc.JdbcPipelineStore} and
 * {@link io.msgx.adapter.jdbc.JdbcTransaction}, one repository per table or, for {@code PROC_STATE}, one per port
 * ({@link io.msgx.adapter.jdbc.JdbcMessageQueue} and its siblings over {@link io.msgx.adapter.jdbc.ProcStateRows},
 * {@link io.msgx.adapter.jdbc.JdbcOutbox},
 * {@link io.msgx.adapter.jdbc.JdbcFlightStore}, ...) in SQL both databases read alike, over
 * {@link io.msgx.adapter.jdbc.StoreJdbc}. What differs between the databases is in their
 * {@link io.msgx.adapter.jdbc.SqlDialect}; a store may also replace a statement with a measured one of its own.
 * {@link io.msgx.adapter.jdbc.StoreFailures} sorts a database's failures over its
 * {@link io.msgx.adapter.jdbc.FailureCodes}; {@link io.msgx.adapter.jdbc.TransactionRunner} runs a business
 * transaction on {@link io.msgx.adapter.jdbc.TransactionConnection}; {@link io.msgx.adapter.jdbc.AtomicUnit} runs
 * several statements as one unit, under a savepoint or in a transaction of their own;
 * {@link io.msgx.adapter.jdbc.JdbcEpochLease} is the single-active-instance lease, bounded in time, whose epoch fences every transaction ({@link io.msgx.adapter.jdbc.LeaseFence}, D-108).
 */
package io.msgx.adapter.jdbc;
