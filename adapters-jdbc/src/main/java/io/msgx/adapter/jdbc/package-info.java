/**
 * What the JDBC store adapters share (adapters-pg on PostgreSQL, adapters-oracle on Oracle 11g), in plain
 * {@code java.sql}: {@link io.msgx.adapter.jdbc.StoreFailures} sorts a database's failures over its
 * {@link io.msgx.adapter.jdbc.FailureCodes}; {@link io.msgx.adapter.jdbc.TransactionConnection} is the one connection
 * of an open transaction; {@link io.msgx.adapter.jdbc.ColumnText} cuts operator text to a column's width; and
 * {@link io.msgx.adapter.jdbc.AtomicUnit} runs several statements as one unit, under a savepoint or in a transaction
 * of their own.
 */
package io.msgx.adapter.jdbc;
