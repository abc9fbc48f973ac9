package io.msgx.runner.console;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's small parts without a browser: escaping, the XML indenter, the redirect guard, the sparkline. */
class ConsolePartsTest {

    @Test
    void escaping_leaves_no_markup_and_no_attribute_break_out() {
        assertThat(Html.esc("<script>alert('x')</script> & \"q\"")).isEqualTo(
                "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
        assertThat(Html.esc(null)).isEqualTo("–");
        assertThat(Html.esc("a\u0000b")).isEqualTo("a\uFFFDb");
    }

    @Test
    void xml_is_indented_lexically_and_a_broken_or_hostile_message_is_kept_as_it_is() {
        assertThat(XmlPretty.indent("<MSG><META><SNDR>AODB</SNDR></META><X/></MSG>")).isEqualTo("""
                <MSG>
                  <META>
                    <SNDR>AODB</SNDR>
                  </META>
                  <X/>
                </MSG>
                """);
        var hostile = "<!DOCTYPE x [<!ENTITY a \"aaaa\">]><MSG>&a;<![CDATA[<b>]]><TYPE>SCHD";
        var shown = XmlPretty.indent(hostile);
        assertThat(shown).contains("<!DOCTYPE x [<!ENTITY a \"aaaa\">").contains("&a;").contains("<![CDATA[<b>]]>")
                .contains("<TYPE>").contains("SCHD");
        assertThat(XmlPretty.indent("not xml at all")).isEqualTo("not xml at all\n");
    }

    @Test
    void after_login_only_a_console_path_is_followed() {
        assertThat(Console.safeNext("/console/flight?flid=1")).isEqualTo("/console/flight?flid=1");
        assertThat(Console.safeNext("https://evil.example/")).isEqualTo("/console/");
        assertThat(Console.safeNext("//evil.example/console/")).isEqualTo("/console/");
        assertThat(Console.safeNext("/console/\\evil")).isEqualTo("/console/");
        assertThat(Console.safeNext(null)).isEqualTo("/console/");
    }

    @Test
    void the_sparkline_scales_to_the_busiest_minute() {
        assertThat(OverviewPage.sparkPoints(new long[]{0, 5, 10})).isEqualTo("0.0,78.0 300.0,41.0 600.0,4.0");
        assertThat(OverviewPage.sparkPoints(new long[]{0, 0})).isEqualTo("0.0,78.0 600.0,78.0");
    }
}
