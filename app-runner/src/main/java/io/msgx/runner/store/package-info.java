/**
 * The store kinds behind one {@link io.msgx.runner.store.StoreBackend} (PostgreSQL, Oracle 11g), and the runner's
 * connection pools, the store's and the mailbox's, which are back as soon as their database is
 * ({@link io.msgx.runner.store.ReconnectingPool}, D-37).
 */
package io.msgx.runner.store;
