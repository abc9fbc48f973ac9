package io.msgx.runner.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * HTTP/1.1 written by hand on a socket, so a test controls every byte an attacker would: header values an HTTP
 * client library would refuse or normalise, a length it never sends, a chunked body that never ends.
 */
final class RawHttp {

    /** What the server answered: the status code and the whole text (headers and body). */
    record Answer(int status, String text) {
    }

    /** How an endless upload ended: the server's status line and how many body bytes the client got to send. */
    record Cutoff(int status, long bytesSent) {
    }

    /** The most an endless upload sends before the test gives up: far beyond any limit of the runner. */
    static final long ENDLESS_CAP = 256L * 1024 * 1024;

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    /** One request with {@code Connection: close}; the answer is read to its end. */
    Answer send(String method, String target, Map<String, String> headers, String body) throws IOException {
        try (var socket = socket()) {
            var bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            var head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (body != null) {
                head.append("Content-Length: ").append(bytes.length).append("\r\n");
            }
            head.append("Connection: close\r\n\r\n");
            var out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            var text = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Answer(statusOf(text), text);
        }
    }

    /**
     * Headers that declare {@code declaredLength} body bytes, and none of the body: only a server that answers
     * without reading the body answers at all (the socket would time out otherwise).
     */
    int statusWithoutBody(String target, Map<String, String> headers, long declaredLength) throws IOException {
        try (var socket = socket()) {
            var head = new StringBuilder("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Content-Length: ").append(declaredLength).append("\r\n\r\n");
            socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return statusOf(statusLine(socket.getInputStream()));
        }
    }

    /**
     * A chunked body that never ends, sent from a second thread until the server answers and closes, or until
     * {@link #ENDLESS_CAP}. A server that reads the whole body before judging its size never answers.
     */
    Cutoff endlessChunkedUpload(String target, Map<String, String> headers) throws Exception {
        try (var socket = socket()) {
            var head = new StringBuilder("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append("Transfer-Encoding: chunked\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            var sent = new AtomicLong();
            var chunk = ("2000\r\n" + "x".repeat(0x2000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            var writer = new Thread(() -> {
                try {
                    while (sent.get() < ENDLESS_CAP) {
                        out.write(chunk);
                        sent.addAndGet(0x2000);
                    }
                } catch (IOException closedByTheServer) {
                    // the answer came and the server closed the connection: what the test waits for
                }
            }, "endless-upload");
            writer.setDaemon(true);
            writer.start();
            int status = statusOf(statusLine(socket.getInputStream()));
            socket.close();
            writer.join(10_000);
            return new Cutoff(status, sent.get());
        }
    }

    private Socket socket() throws IOException {
        var socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        return socket;
    }

    private static String statusLine(InputStream in) throws IOException {
        var line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            line.write(b);
        }
        return line.toString(StandardCharsets.ISO_8859_1).strip();
    }

    private static int statusOf(String text) {
        if (!text.startsWith("HTTP/1.1 ") || text.length() < 12) {
            throw new IllegalStateException("not an HTTP answer: '" + text.lines().findFirst().orElse("") + "'");
        }
        return Integer.parseInt(text.substring(9, 12));
    }
}
