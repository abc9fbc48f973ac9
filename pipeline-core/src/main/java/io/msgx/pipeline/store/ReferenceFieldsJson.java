package io.msgx.pipeline.store;

import io.msgx.pipeline.codec.ReferenceDocument;
import io.msgx.pipeline.port.ReferenceData;

/**
 * How the stores keep a reference record in {@code REF_MASTER.FIELDS}: its {@link ReferenceDocument} as compact JSON
 * text, member order kept (D-58). Rows written before issue 22 hold a flat object of strings, which is a document of
 * the same form and reads as one. For the implementations of {@link ReferenceData}; the column type and the SQL stay
 * with each adapter.
 */
public final class ReferenceFieldsJson {

    private ReferenceFieldsJson() {
    }

    /** The document as the JSON text {@code FIELDS} holds. */
    public static String write(ReferenceDocument document) {
        return document.json();
    }

    /** The document of record {@code type}/{@code key} from its {@code FIELDS}. */
    public static ReferenceDocument read(String type, String key, String json) {
        try {
            return new ReferenceDocument(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("REF_MASTER " + type + "/" + key + " holds FIELDS that are not a JSON object ("
                    + e.getMessage() + "); fix or delete the row, the next message of that type rewrites it", e);
        }
    }
}
