/**
 * The pipeline's store on PostgreSQL: {@link io.msgx.adapter.pg.PgSchema} migrates the schema with Flyway from
 * {@code db/migration/pg}; {@link io.msgx.adapter.pg.PgPipelineStore} is the shared JDBC store
 * ({@code adapters-jdbc}) with PostgreSQL's dialect and its measured statements, those of the outbox written with
 * jOOQ classes generated from the same scripts; {@link io.msgx.adapter.pg.PgLeaderLease} is its leader lease.
 * Everything else in this package is an implementation detail.
 */
package io.msgx.adapter.pg;
