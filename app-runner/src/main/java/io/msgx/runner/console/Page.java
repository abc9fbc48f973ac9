package io.msgx.runner.console;

import java.io.IOException;

/** What {@link Console} routes a path to: a page's GET, or an action's POST. */
@FunctionalInterface
interface Page {

    /**
     * @throws IllegalArgumentException from an action that changed nothing, with why (answered 400 "Not done")
     */
    Answer answer(Call call) throws IOException;
}
