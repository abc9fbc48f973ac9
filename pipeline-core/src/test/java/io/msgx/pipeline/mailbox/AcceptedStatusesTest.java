package io.msgx.pipeline.mailbox;

import io.msgx.pipeline.pump.IgnoreRules;
import io.msgx.pipeline.pump.MessageTriage;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which mailbox statuses make a row a message (sis-format §10, D-110), and the triage's verdict on the others. */
class AcceptedStatusesTest {

    @Test
    void by_default_valid_and_null_are_messages_and_matching_ignores_case_and_surrounding_blanks() {
        var statuses = AcceptedStatuses.defaults();

        assertThat(statuses.accepts("VALID")).isTrue();
        assertThat(statuses.accepts("valid")).isTrue();
        assertThat(statuses.accepts("  Valid ")).as("a CHAR column pads").isTrue();
        assertThat(statuses.accepts(null)).as("NULL counts as accepted").isTrue();
        assertThat(statuses.accepts("INVALID")).isFalse();
        assertThat(statuses.accepts("")).as("blank is a value, not NULL").isFalse();
        assertThat(statuses.accepts("VAL ID")).isFalse();
    }

    @Test
    void the_reason_names_the_status_as_written_trimmed() {
        var statuses = AcceptedStatuses.of(List.of(" valid ", "Pending"));

        assertThat(statuses.statuses()).containsExactly("PENDING", "VALID");
        assertThat(statuses.skipReason("pending")).isEmpty();
        assertThat(statuses.skipReason(" Invalid ")).contains("status:Invalid");
        assertThat(statuses.skipReason("  ")).contains("status:''");
        assertThat(statuses.skipReason(null)).isEmpty();
    }

    @Test
    void an_empty_set_turns_the_check_off() {
        var off = AcceptedStatuses.of(List.of());

        assertThat(off.off()).isTrue();
        assertThat(off).isEqualTo(AcceptedStatuses.any());
        assertThat(off.accepts("INVALID")).isTrue();
        assertThat(off.accepts("")).isTrue();
        assertThat(off.skipReason("INVALID")).isEmpty();
        assertThat(AcceptedStatuses.defaults().off()).isFalse();
    }

    @Test
    void entries_that_cannot_mean_a_status_are_refused_naming_the_key() {
        assertThatThrownBy(() -> AcceptedStatuses.of(List.of("VALID", "null")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(AcceptedStatuses.KEY).hasMessageContaining("'null'")
                .hasMessageContaining("always accepted");
        assertThatThrownBy(() -> AcceptedStatuses.of(List.of("*")))
                .hasMessageContaining(AcceptedStatuses.KEY).hasMessageContaining("empty value");
        assertThatThrownBy(() -> AcceptedStatuses.of(List.of("VALID", " ")))
                .hasMessageContaining(AcceptedStatuses.KEY).hasMessageContaining("blank");
    }

    @Test
    void the_triage_skips_a_row_for_its_status_before_anything_reads_its_text() {
        var triage = new MessageTriage(IgnoreRules.baseline(), AcceptedStatuses.defaults());

        assertThat(triage.ofStatus("INVALID")).contains(new MessageTriage.Skip("status:INVALID"));
        assertThat(triage.ofStatus("VALID")).isEmpty();
        assertThat(triage.ofStatus(null)).isEmpty();
        assertThat(new MessageTriage(IgnoreRules.baseline(), AcceptedStatuses.any()).ofStatus("INVALID")).isEmpty();
        assertThat(MessageTriage.groupable(triage.ofStatus("INVALID").orElseThrow())).isTrue();
    }
}
