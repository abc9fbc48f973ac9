/**
 * One active instance per store: the leader lease (D-108), the watcher that takes it or waits as a hot standby, the
 * active role that runs the pipeline's jobs while the lease is held, and the event sink that sends only while it is.
 */
package io.msgx.runner.standby;
