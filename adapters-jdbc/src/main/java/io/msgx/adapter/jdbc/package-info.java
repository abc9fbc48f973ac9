/**
 * What the JDBC store adapters share (adapters-pg on PostgreSQL, adapters-oracle on Oracle 11g), in plain
 * {@code java.sql}: {@link io.msgx.adapter.jdbc.StoreFailures} sorts a database's failures over its
 * {@link io.msgx.adapter.jdbc.FailureCodes}; {@link io.msgx.adapter.jdbc.TransactionRunner} runs a business transaction
 * on {@link io.msgx.adapter.jdbc.TransactionConnection}, the one connection of an open transaction; and
 * {@link io.msgx.adapter.jdbc.AtomicUnit} runs several statements as one unit, under a savepoint or in a transaction of
 * their own. Operator text is cut to its column by pipeline-core's {@link io.msgx.pipeline.store.ColumnText}, which the
 * in-memory store uses too.
 */
package io.msgx.adapter.jdbc;
