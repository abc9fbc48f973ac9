package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The HTTP side's server under the probes of issue 36 (D-144): clients that never finish their request do not stop
 * the health probes, a silent connection is closed, an oversized request head is refused, and HTTPS serves with the
 * configured keystore.
 */
class HttpLimitsTest {

    @TempDir
    Path dir;

    private HttpApi api;
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws IOException {
        for (var socket : sockets) {
            socket.close();
        }
        if (api != null) {
            api.stop(Duration.ofSeconds(1));
        }
    }

    private HttpApi start(HttpSettings settings) {
        api = new HttpApi(settings, null, List.of(), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        return api;
    }

    private static HttpSettings plain(Duration idle) {
        return new HttpSettings("127.0.0.1", 0, null, 1024, Duration.ofSeconds(1)).with(idle, true);
    }

    /** A connection that sends the start of a request head and never its end. */
    private Socket halfSent(int port) throws IOException {
        var socket = new Socket("127.0.0.1", port);
        sockets.add(socket);
        socket.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    @Test
    void forty_half_sent_requests_do_not_stop_the_liveness_probe() throws Exception {
        var port = start(plain(Duration.ofSeconds(30))).port();
        for (int i = 0; i < 40; i++) {
            halfSent(port);
        }
        var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        long started = System.nanoTime();
        var live = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health/live"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void a_connection_that_stays_silent_is_closed_after_the_idle_timeout() throws Exception {
        var socket = halfSent(start(plain(Duration.ofSeconds(1))).port());
        socket.setSoTimeout(10_000);

        long started = System.nanoTime();
        var in = socket.getInputStream();
        var answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
        assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 408"));
    }

    @Test
    void an_oversized_request_head_is_refused_with_431() throws Exception {
        var port = start(plain(Duration.ofSeconds(30))).port();
        try (var socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                    + "x".repeat(JettyServer.MAX_HEAD_BYTES * 2) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            var answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(answer).isEqualTo("HTTP/1.1 431");
        }
    }

    @Test
    void https_serves_with_the_configured_keystore_and_plain_http_gets_nothing() throws Exception {
        var keystore = dir.resolve("http.p12");
        var keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        var made = new ProcessBuilder(keytool, "-genkeypair", "-alias", "msgx", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit-test",
                "-keypass", "changeit-test").redirectErrorStream(true).start();
        assertThat(made.waitFor()).as(new String(made.getInputStream().readAllBytes())).isZero();
        var port = start(plain(Duration.ofSeconds(30))
                .withTls(new HttpSettings.Tls(keystore, "changeit-test", "pkcs12"))).port();

        var trust = KeyStore.getInstance("PKCS12");
        try (var in = new FileInputStream(keystore.toFile())) {
            trust.load(in, "changeit-test".toCharArray());
        }
        var trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        var tls = SSLContext.getInstance("TLS");
        tls.init(null, trustManagers.getTrustManagers(), null);
        var client = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();

        var live = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/health/live"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.headers().firstValue("Server")).isEmpty();

        var untrusting = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThatThrownBy(() -> untrusting.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port
                + "/health/live")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()))
                .as("a client that does not trust the certificate").isInstanceOf(IOException.class);
        try (var socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            var answer = new String(socket.getInputStream().readNBytes(64), StandardCharsets.ISO_8859_1);
            assertThat(answer).as("plain HTTP on the HTTPS port").doesNotContain("UP");
        }
    }
}
