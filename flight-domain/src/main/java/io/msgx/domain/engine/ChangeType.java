package io.msgx.domain.engine;

/** What a change notification says happened to a flight. {@code DELETE} travels as a tombstone. */
public enum ChangeType {
    UPSERT,
    DELETE
}
