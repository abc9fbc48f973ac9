/**
 * What every store implementation shares, so that the PostgreSQL, Oracle and in-memory test stores behave alike:
 * the failures a store reports ({@code StoreUnavailableException}, {@code StoreConflictException},
 * {@code LeaseLostException}), the bundles of ports a store hands over ({@code TablePorts}, {@code ProcStatePorts}),
 * the identity binding over single statements ({@code IdentityBinder}), operator text cut to its column
 * ({@code ColumnText}) and the stored form of a reference record ({@code ReferenceFieldsJson}). The contract suites
 * every store runs ({@code *Contract}) are in this package of pipeline-core's test-jar.
 */
package io.msgx.pipeline.store;
