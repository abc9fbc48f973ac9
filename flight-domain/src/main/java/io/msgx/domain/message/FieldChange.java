package io.msgx.domain.message;

import java.util.Objects;

/**
 * What a message says about one scalar field it carries. A field the message does not carry has no
 * {@code FieldChange} at all: absent says nothing, {@link Cleared} (an empty element) is an explicit clear.
 */
public sealed interface FieldChange {

    static FieldChange of(String text) {
        return text == null || text.isEmpty() ? Cleared.INSTANCE : new SetTo(text);
    }

    /** The element carried a value. */
    record SetTo(String value) implements FieldChange {
        public SetTo {
            Objects.requireNonNull(value, "value");
            if (value.isEmpty()) {
                throw new IllegalArgumentException("an empty value is a clear, not a set");
            }
        }
    }

    /** The element was present and empty ({@code <GATE/>}): clear the field. */
    enum Cleared implements FieldChange {
        INSTANCE
    }
}
