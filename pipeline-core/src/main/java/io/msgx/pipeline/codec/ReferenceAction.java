package io.msgx.pipeline.codec;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a reference message ({@code TYPE=<reference type>}) does with its records, by its {@code STYP} (sis-format §6).
 * Every reference type accepts every action.
 */
public enum ReferenceAction {
    /** The AODB's full list of the type, broadcast: each record is written (insert or replace by key). */
    DNLD,
    /** The answer to our request ({@code RQRD}), same body as {@code DNLD}: each record is written. */
    RESP,
    /** New records: each is written. */
    ADD,
    /** Changed records, each whole: each is written. */
    UPD,
    /** Records to remove by key; the key is enough, other elements may be present. */
    DEL;

    /** The action an upper-case {@code STYP} names, empty for any other. */
    public static Optional<ReferenceAction> byCode(String subtype) {
        return Arrays.stream(values()).filter(action -> action.name().equals(subtype)).findFirst();
    }

    /** Whether the records are written (insert or replace); false only for {@link #DEL}. */
    public boolean writes() {
        return this != DEL;
    }
}
