/**
 * The Oracle self-test (D-88): this build's store contract suites run in a JVM of their own against a scratch schema
 * on the store's Oracle, their report, and its record in the store.
 */
package io.msgx.runner.selftest;
