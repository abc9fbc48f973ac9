package io.msgx.runner.console;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The console's templates ({@code app-runner/src/main/jte/console/*.jte}), precompiled into this package by
 * jte-maven-plugin at build time: nothing is compiled at run time and the jar holds only jte-runtime. Each page
 * template takes one model (a record of its page class) and renders the whole page inside {@code layout.jte};
 * everything is written through {@link ConsoleHtmlOutput}, which escapes every value.
 */
final class Templates {

    private final TemplateEngine engine = TemplateEngine.createPrecompiled(null, ContentType.Html,
            Templates.class.getClassLoader(), "io.msgx.runner");

    /** The page {@code console/<name>.jte} for {@code model}, as HTML. */
    String render(String name, Object model) {
        var out = new StringOutput(8192);
        engine.render("console/" + name + ".jte", model, new ConsoleHtmlOutput(out));
        return out.toString();
    }
}
