package io.msgx.runner.http;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The Jetty server under the HTTP side (D-144), with the limits an airport network needs:
 * <ul>
 *   <li>a connection is served by Jetty's selector, not by a thread, until a whole request head has arrived, so
 *       clients that never finish their headers hold no thread and cannot stop the probes;</li>
 *   <li>a connection silent for {@link HttpSettings#idleTimeout()} is closed; a request body must arrive at
 *       {@value #MIN_BODY_BYTES_PER_SECOND} bytes/s at least;</li>
 *   <li>at most {@link HttpSettings#maxConnections()} connections at once, a request head of at most
 *       {@value #MAX_HEAD_BYTES} bytes (431 beyond), {@value #MAX_THREADS} threads named {@code msgx-http-*};</li>
 *   <li>no {@code Server} header; HTTPS with the configured keystore when {@link HttpSettings#tls()} is set
 *       (TLS 1.2 and 1.3, Jetty's default cipher exclusions).</li>
 * </ul>
 */
final class JettyServer {

    /** Threads serving requests (and Jetty's acceptor and selector): plenty for probes, scrapes and the console. */
    static final int MAX_THREADS = 24;
    static final int MAX_HEAD_BYTES = 8 * 1024;
    static final int MIN_BODY_BYTES_PER_SECOND = 1024;

    private JettyServer() {
    }

    /** A server listening as {@code settings} say, answering through {@code routes}; not started. */
    static Server create(HttpSettings settings, HttpRoutes routes) {
        var threads = new QueuedThreadPool(MAX_THREADS, 4);
        threads.setName("msgx-http");
        threads.setDaemon(true);
        var server = new Server(threads);
        var http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize(MAX_HEAD_BYTES);
        http.setMinRequestDataRate(MIN_BODY_BYTES_PER_SECOND);
        ServerConnector connector;
        if (settings.tls() == null) {
            connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
        } else {
            var tls = new SslContextFactory.Server();
            tls.setKeyStorePath(settings.tls().keystore().toString());
            tls.setKeyStoreType(settings.tls().type());
            if (settings.tls().password() != null) {
                tls.setKeyStorePassword(settings.tls().password());
            }
            tls.setIncludeProtocols("TLSv1.3", "TLSv1.2");
            http.setSecureScheme("https");
            var secure = new SecureRequestCustomizer();
            secure.setSniHostCheck(false);
            http.addCustomizer(secure);
            var http11 = new HttpConnectionFactory(http);
            connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, http11.getProtocol()), http11);
        }
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        connector.setIdleTimeout(settings.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(settings.maxConnections(), server));
        server.setHandler(routes);
        // HttpApi.stop waited for the requests in flight already; what is left is interrupted.
        server.setStopTimeout(0);
        threads.setStopTimeout(500);
        return server;
    }
}
