package io.msgx.runner.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.runner.embed.MsgExchange;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * {@code /console/reference[?type=[&key=]]}: reference data (sis-format §6, D-58) — the types with their counts, a
 * type's records, one record's document pretty-printed. Read-only.
 */
final class ReferencePage {

    /** Records listed on a type's page at most. */
    static final int REFERENCE_PAGE_LIMIT = 500;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What {@code referenceTypes.jte} shows: each type held with its number of records. */
    record Types(Frame frame, Map<String, Long> counts) {
    }

    /** What {@code referenceRecords.jte} shows: a type's records by key (none: the type is unknown). */
    record Records(Frame frame, String type, List<ReferenceEntry> entries, int limit) {
    }

    /** What {@code referenceRecord.jte} shows: one record (null: no such key) and its document pretty-printed. */
    record Record(Frame frame, String type, String key, ReferenceEntry entry, String document) {
    }

    private final MsgExchange exchange;
    private final Templates templates;

    ReferencePage(MsgExchange exchange, Templates templates) {
        this.exchange = exchange;
        this.templates = templates;
    }

    Answer page(Call call) {
        var references = exchange.store().referenceData();
        var type = call.params().get("type");
        var key = call.params().get("key");
        var frame = call.frame("Reference data");
        if (type == null) {
            return Answer.html(200, templates.render("referenceTypes", new Types(frame, references.countsByType())));
        }
        if (key == null) {
            var entries = references.all(type, REFERENCE_PAGE_LIMIT);
            return Answer.html(entries.isEmpty() ? 404 : 200, templates.render("referenceRecords",
                    new Records(frame, type, entries, REFERENCE_PAGE_LIMIT)));
        }
        var entry = references.find(type, key).orElse(null);
        var document = entry == null ? null : pretty(entry);
        return Answer.html(entry == null ? 404 : 200, templates.render("referenceRecord",
                new Record(frame, type, key, entry, document)));
    }

    private static String pretty(ReferenceEntry entry) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(entry.document().node());
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
