/**
 * The pipeline's store on PostgreSQL: {@link io.msgx.adapter.pg.PgSchema} migrates the schema with Flyway from
 * {@code db/migration/pg}, {@link io.msgx.adapter.pg.PgPipelineStore} implements the store ports with jOOQ
 * classes generated from the same scripts. Everything else in this package is an implementation detail.
 */
package io.msgx.adapter.pg;
