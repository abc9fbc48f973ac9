package io.msgx.runner.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Real HTTP against a started {@link HttpApi} on a free port, with {@link HttpClient}. */
final class HttpFixture {

    static final String TOKEN = "s3cret-token-for-tests";
    static final String VALID_XML = "<MSG><META><SNDR>AODB</SNDR><SEQN>1</SEQN><DTTM>20240311060000</DTTM>"
            + "<TYPE>SCHD</TYPE><STYP>DNLD</STYP></META><SCHD><RECS>0</RECS></SCHD></MSG>";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final HttpApi api;

    HttpFixture(HttpApi api) {
        this.api = api;
    }

    static HttpSettings settings(String token, long maxBody, Duration readyTimeout) {
        return new HttpSettings("127.0.0.1", 0, token, maxBody, readyTimeout);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + api.port() + path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    /** GET with {@code Authorization: Bearer <secret>}. */
    HttpResponse<String> getAs(String path, String secret) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + secret).GET());
    }

    /** POST {@code body} to the entry; {@code token} null sends no Authorization header. */
    HttpResponse<String> post(String token, String contentType, byte[] body) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(uri("/cminmsgs/send")).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    HttpResponse<String> post(String token, String xml) throws IOException, InterruptedException {
        return post(token, "application/xml; charset=utf-8", xml.getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }
}
