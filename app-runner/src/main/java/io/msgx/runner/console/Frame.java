package io.msgx.runner.console;

/**
 * What {@code layout.jte} puts around every page: its title, and who is logged in (null on the pages of a caller not
 * yet known) with the session's form token (null for a bearer client).
 */
record Frame(String title, String operator, String csrf) {

    static Frame of(String title, ConsoleAuth.Caller who) {
        return new Frame(title, who == null ? null : who.operator(), who == null ? null : who.csrf());
    }
}
