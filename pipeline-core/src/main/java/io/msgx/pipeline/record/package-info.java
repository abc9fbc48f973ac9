/**
 * The records the store keeps and its ports carry: a message's processing state ({@code ProcRecord},
 * {@code ProcStatus}, how it ended: {@code MessageEnd}, {@code ErrorClass}), the outbox's entries and targets, dead
 * events, the inbox cursor, requests to the AODB, reference entries and events. Values only: the interfaces that
 * read and write them are in {@code io.msgx.pipeline.port}.
 */
package io.msgx.pipeline.record;
