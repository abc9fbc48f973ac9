package io.msgx.runner.console;

/**
 * What {@code result.jte} shows after an action: what came of it, what was left alone (null when nothing), and the way
 * back to the page it was asked from.
 */
record Result(Frame frame, String text, String problem, String back, String backLabel) {

    static final String EVENTS = Console.PREFIX + "/events";
    static final String ABANDONED = Console.PREFIX + "/abandoned";
}
