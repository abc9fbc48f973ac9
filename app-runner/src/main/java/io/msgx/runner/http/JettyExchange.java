package io.msgx.runner.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;

/**
 * One request served by Jetty, seen through the {@link HttpExchange} API the endpoints and the console are written
 * against (a Java SE API, {@code com.sun.net.httpserver}), so that the server underneath could change without them
 * (D-144). The length argument of {@link #sendResponseHeaders} keeps its documented meaning: {@code -1} no body,
 * {@code 0} a body of unknown length, more a body of exactly that length.
 */
final class JettyExchange extends HttpExchange {

    private final Request request;
    private final Response response;
    private final Headers responseHeaders = new Headers();
    private Headers requestHeaders;
    private InputStream in;
    private OutputStream out;
    private int status = -1;
    private boolean closed;

    JettyExchange(Request request, Response response) {
        this.request = request;
        this.response = response;
        this.in = Content.Source.asInputStream(request);
        this.out = Content.Sink.asOutputStream(response);
    }

    @Override
    public Headers getRequestHeaders() {
        if (requestHeaders == null) {
            var headers = new Headers();
            for (var field : request.getHeaders()) {
                if (field.getValue() != null) {
                    headers.add(field.getName(), field.getValue());
                }
            }
            requestHeaders = headers;
        }
        return requestHeaders;
    }

    @Override
    public Headers getResponseHeaders() {
        return responseHeaders;
    }

    @Override
    public URI getRequestURI() {
        return request.getHttpURI().toURI();
    }

    @Override
    public String getRequestMethod() {
        return request.getMethod();
    }

    /** No {@link HttpContext}: the routes are Jetty's ({@link HttpRoutes}), not contexts. */
    @Override
    public HttpContext getHttpContext() {
        return null;
    }

    /** Ends the answer: whatever was written is flushed and the response completed. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (status < 0) {
                sendResponseHeaders(500, -1);
            }
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public InputStream getRequestBody() {
        return in;
    }

    @Override
    public OutputStream getResponseBody() {
        return out;
    }

    @Override
    public void sendResponseHeaders(int code, long length) throws IOException {
        if (status >= 0) {
            throw new IOException("headers already sent");
        }
        status = code;
        response.setStatus(code);
        var headers = response.getHeaders();
        responseHeaders.forEach((name, values) -> {
            headers.remove(name);
            values.forEach(value -> headers.add(name, value));
        });
        if (length > 0) {
            headers.put("Content-Length", length);
        } else if (length < 0) {
            headers.put("Content-Length", 0L);
        }
    }

    @Override
    public InetSocketAddress getRemoteAddress() {
        return request.getConnectionMetaData().getRemoteSocketAddress() instanceof InetSocketAddress remote
                ? remote : null;
    }

    @Override
    public int getResponseCode() {
        return status;
    }

    @Override
    public InetSocketAddress getLocalAddress() {
        return request.getConnectionMetaData().getLocalSocketAddress() instanceof InetSocketAddress local
                ? local : null;
    }

    @Override
    public String getProtocol() {
        return request.getConnectionMetaData().getProtocol();
    }

    @Override
    public Object getAttribute(String name) {
        return request.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, Object value) {
        request.setAttribute(name, value);
    }

    @Override
    public void setStreams(InputStream i, OutputStream o) {
        if (i != null) {
            in = i;
        }
        if (o != null) {
            out = o;
        }
    }

    @Override
    public HttpPrincipal getPrincipal() {
        return null;
    }

}
