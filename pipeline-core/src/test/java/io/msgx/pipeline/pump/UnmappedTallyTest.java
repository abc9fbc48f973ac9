package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.port.PipelineMetrics;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The unmapped-path tally is bounded per sender: one sender inventing names cannot use up the others' budget. */
class UnmappedTallyTest {

    private final List<String> counted = new ArrayList<>();
    private final UnmappedTally tally = new UnmappedTally(new PipelineMetrics() {
        @Override
        public void unmappedRead(String kind, String path) {
            counted.add(path);
        }
    });

    private static DecodeResult.Decoded message(String sender, String unknownElement) {
        var xml = "<MSG><META><SNDR>" + sender + "</SNDR><SEQN>1</SEQN><DTTM>20240311060000</DTTM><TYPE>SCHD</TYPE>"
                + "<STYP>DNLD</STYP></META><SCHD><RECS>0</RECS></SCHD><" + unknownElement + ">v</" + unknownElement
                + "></MSG>";
        return (DecodeResult.Decoded) new JacksonXmlCodec().decode(xml);
    }

    @Test
    void a_sender_inventing_names_is_counted_apart_up_to_its_budget_and_the_others_keep_theirs() {
        assertThat(message("AODB", "XTRA").unmapped()).as("the probe element is unmapped").isNotEmpty();
        for (int i = 0; i < UnmappedTally.MAX_PATHS_PER_SENDER * 3; i++) {
            tally.report(i, message("NOISY", "N" + i));
        }
        assertThat(counted).filteredOn(p -> !p.equals(UnmappedTally.OTHER_PATHS))
                .hasSize(UnmappedTally.MAX_PATHS_PER_SENDER);
        assertThat(counted).filteredOn(p -> p.equals(UnmappedTally.OTHER_PATHS))
                .hasSize(UnmappedTally.MAX_PATHS_PER_SENDER * 2);

        counted.clear();
        tally.report(100_000, message("AODB", "XTRA"));
        assertThat(counted).as("another sender's new path is still told apart").singleElement()
                .satisfies(path -> assertThat(path).contains("XTRA"));
    }

    @Test
    void senders_beyond_the_first_ones_share_one_budget() {
        for (int s = 0; s < UnmappedTally.MAX_SENDERS; s++) {
            tally.report(s, message("S" + s, "FIRST" + s));
        }
        counted.clear();
        for (int s = 0; s < 5; s++) {
            for (int i = 0; i < 100; i++) {
                tally.report(10_000L + s * 100 + i, message("LATE" + s, "L" + s + "x" + i));
            }
        }
        assertThat(counted).filteredOn(p -> !p.equals(UnmappedTally.OTHER_PATHS)).as("the late senders' one budget")
                .hasSize(UnmappedTally.MAX_PATHS_PER_SENDER);
        assertThat(counted).filteredOn(p -> p.equals(UnmappedTally.OTHER_PATHS)).hasSize(500 - UnmappedTally.MAX_PATHS_PER_SENDER);
    }
}
