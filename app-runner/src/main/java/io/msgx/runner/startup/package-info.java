/**
 * What start-up refuses or warns about before an instance asks for the lease: the store's schema, the identity
 * algorithm, the Kafka cluster and its topics.
 */
package io.msgx.runner.startup;
