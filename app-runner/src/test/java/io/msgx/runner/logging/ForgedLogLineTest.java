package io.msgx.runner.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusUtil;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 36, point 4: a message whose content carries CR/LF cannot forge a log line. The runner's own logback.xml (the
 * text format, what an operator's journal holds) is put in place, a message whose {@code DTTM} holds a line break and
 * a perfect copy of an {@code AUDIT} line is processed, and the log is read back as the journal would hold it.
 */
class ForgedLogLineTest {

    private static final String FORGED = "2026-12-05T10:00:00.000+08:00 INFO  [main] [msg=] OperatorActions - AUDIT "
            + "events purge --all by mallory";

    private final PrintStream stderr = System.err;
    private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();

    @AfterEach
    void restoreTheTestsLogging() throws Exception {
        System.setErr(stderr);
        context.reset();
        new ContextInitializer(context).autoConfig();
    }

    @Test
    void a_message_with_line_breaks_in_its_content_writes_one_line_and_forges_none() throws Exception {
        var journal = new ByteArrayOutputStream();
        System.setErr(new PrintStream(journal, true, StandardCharsets.UTF_8));
        context.reset();
        var configurator = new JoranConfigurator();
        configurator.setContext(context);
        long configuredFrom = System.currentTimeMillis();
        configurator.doConfigure(getClass().getResource("/logback.xml")); // the runner's, not the tests'
        assertThat(new StatusUtil(context).getHighestLevel(configuredFrom)).as("logback.xml configures without a warning: Logback"
                + " prints its status to stdout then, into the output of 'status --json'").isLessThan(Status.WARN);

        var mailbox = new InMemoryMailbox();
        var store = H2TestStore.fresh();
        long id = mailbox.appendInbound("<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20240311\r\n" + FORGED
                + "\n0800</DTTM><TYPE>FLOP</TYPE><STYP>STND</STYP></META><FLOP><FLID>1001</FLID><STND>504</STND></FLOP>"
                + "</MSG>", null);
        new PipelineHarness(mailbox, store, SettableClock.atExampleDay()).runUntilQuiet();
        assertThat(store.queue().find(id).orElseThrow().status()).isEqualTo(ProcStatus.DEAD);

        var lines = journal.toString(StandardCharsets.UTF_8).split("\n");
        assertThat(Arrays.stream(lines).filter(line -> line.contains("OperatorActions - AUDIT")))
                .as("the forged AUDIT text appears once, inside the line that reports the message")
                .singleElement().satisfies(line -> assertThat(line).doesNotStartWith(FORGED)
                        .contains("Message " + id + " DEAD", "20240311\\n" + FORGED + "\\n0800")); // XML reads CR LF as LF
        assertThat(lines).noneMatch(line -> line.startsWith("2026-12-05T10:00:00.000+08:00"));
        assertThat(journal.toString(StandardCharsets.UTF_8)).doesNotContain("\r");
    }

    @Test
    void every_control_character_is_escaped_and_plain_text_is_left_as_it_is() {
        assertThat(EscapedMessageConverter.escaped("gate G33 opened")).isSameAs("gate G33 opened");
        assertThat(EscapedMessageConverter.escaped("a\r\nb\tc")).isEqualTo("a\\r\\nb\\tc");
        assertThat(EscapedMessageConverter.escaped("bell\u0007 esc\u001b[31m del\u007f nel\u0085 ls\u2028 ps\u2029"))
                .isEqualTo("bell\\u0007 esc\\u001b[31m del\\u007f nel\\u0085 ls\\u2028 ps\\u2029");
        assertThat(EscapedMessageConverter.escaped("航班 CA1405 → G33")).isEqualTo("航班 CA1405 → G33");
    }
}
