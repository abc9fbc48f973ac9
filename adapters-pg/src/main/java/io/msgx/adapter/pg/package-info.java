/**
 * The pipeline's store on PostgreSQL: {@link io.msgx.adapter.pg.PgSchema} migrates the schema with Flyway from
 * {@code db/migration/pg}; {@link io.msgx.adapter.pg.PgPipelineStore} is the shared JDBC store
 * ({@code adapters-jdbc}) with PostgreSQL's dialect and its measured statements, those of the outbox written with
 * jOOQ classes generated from the same scripts; its leader lease is adapters-jdbc's {@code JdbcEpochLease} on the row of {@code LEADER_LEASE}.
 * Everything else in this package is an implementation detail.
 */
package io.msgx.adapter.pg;
