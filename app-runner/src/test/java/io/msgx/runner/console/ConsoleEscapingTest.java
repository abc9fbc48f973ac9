package io.msgx.runner.console;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightFields;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightLists;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.flight.OperationDay;
import io.msgx.pipeline.codec.ReferenceDocument;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.runner.operations.OperatorActions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The templates escape by default (D-93): a value carrying markup and both quotes, put wherever a page shows text an
 * operator typed or the AODB sent, comes out as text on every kind of page, in element bodies and in attributes
 * alike; and no template writes anything raw.
 */
class ConsoleEscapingTest {

    static final String HOSTILE = "<script>alert(\"x\")</script>'";
    static final String ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;";
    private static final Instant AT = Instant.parse("2024-03-11T08:35:00Z");

    private final Templates templates = new Templates();
    private final Frame frame = new Frame("Page", HOSTILE, HOSTILE);

    @Test
    void the_layout_and_the_short_answers_escape_the_operator_name_the_form_token_and_a_refusal() {
        assertEscaped(templates.render("notice", new Notice.Model(frame, Notice.NOT_DONE, HOSTILE)), 3);
        assertEscaped(templates.render("login", new LoginPage.Model(Frame.of("Log in", null),
                Console.safeNext("/console/" + HOSTILE), HOSTILE)), 2);
        assertEscaped(templates.render("result", new Result(frame, HOSTILE, HOSTILE, Result.EVENTS, "Back")), 4);
    }

    @Test
    void the_message_page_escapes_the_lookup_the_record_the_raw_xml_and_what_is_unmapped() {
        var record = new ProcRecord(7, ProcStatus.DEAD, HOSTILE, 2, null, ErrorClass.MALFORMED, HOSTILE, AT, AT, AT,
                null, null, 0, AT, HOSTILE, AT);
        var raw = new MessagePage.Raw(HOSTILE, XmlPretty.indent("<MSG>" + HOSTILE + "</MSG>"), List.of(HOSTILE), HOSTILE);
        var html = templates.render("message", new MessagePage.Model(frame, HOSTILE, HOSTILE, HOSTILE, record, null,
                new MessagePage.Replay(false, HOSTILE), raw, HOSTILE));
        assertEscaped(html, 15);
        assertThat(html).doesNotContain("<MSG>").contains("&lt;MSG&gt;");
    }

    @Test
    void the_flight_page_escapes_the_lookup_fields_lists_mafl_and_the_problem() {
        var fields = new LinkedHashMap<FlightField, String>();
        fields.put(FlightField.FLNO, HOSTILE);
        var gates = FlightLists.of(Map.of(FlightList.GTDT, List.of(new ListItem(1, Map.of("GATE", HOSTILE)))));
        var flight = new FlightState(FlightId.of("1001"), FlightStatus.ACTIVE, 3, OperationDay.of(LocalDate.of(2024, 3, 11)),
                40, FlightFields.of(fields), gates);
        var view = new OperatorActions.FlightView(flight, List.of(new MaflEntry(FlightId.of("1002"), HOSTILE)));
        var shown = new FlightPage.Shown(view, List.copyOf(gates.asMap().entrySet()), List.of());
        assertEscaped(templates.render("flight", new FlightPage.Model(frame, HOSTILE, HOSTILE, HOSTILE, List.of(),
                shown, HOSTILE)), 9);
    }

    @Test
    void the_lists_escape_errors_keys_reasons_and_notes() {
        var record = new ProcRecord(7, ProcStatus.DEAD, null, 2, null, ErrorClass.EXHAUSTED, HOSTILE, AT, AT, AT, null,
                null, 0, AT, HOSTILE, AT);
        assertEscaped(templates.render("dead", new DeadPage.Model(frame, null, null, List.of(record), 1,
                Map.of(ErrorClass.EXHAUSTED, 1), false, HOSTILE, 500)), 3);
        assertEscaped(templates.render("dead", new DeadPage.Model(frame, HOSTILE, null, List.of(), 0, Map.of(), false,
                null, 500)), 3);
        var event = new DeadEvent(41, OutboxTarget.KAFKA_REF, HOSTILE, 1, 3, HOSTILE, AT, AT);
        assertEscaped(templates.render("events", new EventsPage.Model(frame, List.of(event), 500)), 8);
        var mark = new BackfillMarks.AbandonedMark(record, AT, HOSTILE, HOSTILE);
        assertEscaped(templates.render("abandoned", new AbandonedPage.Model(frame, List.of(mark))), 7);
    }

    @Test
    void the_reference_pages_escape_types_keys_and_documents() {
        var document = ReferenceDocument.flat(Map.of("GTNM", HOSTILE));
        var entry = new ReferenceEntry(HOSTILE, HOSTILE, document, 9, AT);
        assertEscaped(templates.render("referenceTypes", new ReferencePage.Types(frame, Map.of(HOSTILE, 2L))), 3);
        assertEscaped(templates.render("referenceRecords", new ReferencePage.Records(frame, HOSTILE, List.of(entry),
                500)), 4);
        assertEscaped(templates.render("referenceRecord", new ReferencePage.Record(frame, HOSTILE, HOSTILE, entry,
                HOSTILE)), 8);
    }

    /** {@code $unsafe} would write a value raw; the console's templates have no place for it (ConsoleHtmlOutput). */
    @Test
    void no_template_writes_a_value_unescaped() throws IOException {
        try (var templates = Files.walk(Path.of("src/main/jte"))) {
            var files = templates.filter(p -> p.toString().endsWith(".jte")).toList();
            assertThat(files).hasSizeGreaterThan(10);
            for (var file : files) {
                assertThat(Files.readString(file)).as(file.toString()).doesNotContain("$unsafe");
            }
        }
    }

    /** The hostile value shows escaped {@code times} times (each place it was put as text) and never as markup. */
    private static void assertEscaped(String html, int times) {
        assertThat(html).doesNotContain("<script>alert").doesNotContain("\"x\"");
        assertThat(html.split(Pattern.quote(ESCAPED), -1).length - 1).as(html).isEqualTo(times);
    }
}
