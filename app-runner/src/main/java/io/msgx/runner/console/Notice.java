package io.msgx.runner.console;

/**
 * The console's own short answers (its sentence is in {@code notice.jte}): the console off, a login asked for or
 * done, a refusal, a page or action that does not exist, an action not done and why.
 */
enum Notice {
    CONSOLE_OFF(403, "Console off"),
    LOG_IN_FIRST(303, "Log in"),
    NOT_LOGGED_IN(401, "Not logged in"),
    LOGGED_IN(303, "Logged in"),
    LOGGED_OUT(303, "Logged out"),
    NO_SUCH_PAGE(404, "Not found"),
    NO_SUCH_ACTION(404, "Not found"),
    TOO_LARGE(413, "Too large"),
    REFUSED(403, "Refused"),
    NOT_DONE(400, "Not done"),
    FAILED(500, "Error");

    final int status;
    final String title;

    Notice(int status, String title) {
        this.status = status;
        this.title = title;
    }

    /** What {@code notice.jte} shows: the notice, and for {@link #NOT_DONE} why. */
    record Model(Frame frame, Notice notice, String detail) {
    }

    /** This notice as a whole page for {@code who} (null: no one logged in yet). */
    Answer answer(Templates templates, ConsoleAuth.Caller who, String detail) {
        return Answer.html(status, templates.render("notice", new Model(Frame.of(title, who), this, detail)));
    }
}
