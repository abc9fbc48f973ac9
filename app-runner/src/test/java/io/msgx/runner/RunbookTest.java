package io.msgx.runner;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Locale;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Every shipped alert has its runbook section, and its {@code runbook} annotation points at it. */
class RunbookTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void every_alert_has_a_runbook_section_and_links_to_it() throws Exception {
        var alerts = Files.readString(ROOT.resolve("ops/prometheus/alerts.yml"));
        var runbook = Files.readString(ROOT.resolve("docs/runbook.md"));
        var names = new ArrayList<String>();
        var alert = Pattern.compile("- alert: (\\w+)").matcher(alerts);
        while (alert.find()) {
            names.add(alert.group(1));
        }
        assertThat(names).hasSizeGreaterThanOrEqualTo(10);
        for (var name : names) {
            assertThat(runbook).as("docs/runbook.md has a section for " + name).contains("\n## " + name + "\n");
            assertThat(alerts).as(name + " links to its section")
                    .contains("runbook: \"docs/runbook.md#" + name.toLowerCase(Locale.ROOT) + "\"");
        }
        var sections = Pattern.compile("\n## (Msgx\\w+)\n").matcher(runbook);
        while (sections.find()) {
            assertThat(names).as("the runbook's section " + sections.group(1) + " is an alert that ships")
                    .contains(sections.group(1));
        }
    }
}
