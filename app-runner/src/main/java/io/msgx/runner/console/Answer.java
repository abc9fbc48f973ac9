package io.msgx.runner.console;

/** A page as answered: the HTTP status, the content type and the body (a whole HTML page, or JSON). */
record Answer(int status, String type, String body) {

    static final String HTML = "text/html; charset=utf-8";

    static Answer html(int status, String page) {
        return new Answer(status, HTML, page);
    }
}
