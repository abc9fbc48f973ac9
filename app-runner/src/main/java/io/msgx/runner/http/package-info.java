/**
 * The runner's HTTP side, on the JDK's {@code com.sun.net.httpserver} (no web framework):
 * <ul>
 *   <li>{@code POST /cminmsgs/send} — the compatibility entry ({@link io.msgx.pipeline.inbox.CompatEntry}),
 *       bearer-token protected, off without a token;</li>
 *   <li>{@code GET /health/live} and {@code GET /health/ready} — liveness, and readiness from a list of
 *       {@link io.msgx.runner.http.ReadinessCheck}s each bounded in time;</li>
 *   <li>{@code GET /metrics} — Prometheus text format.</li>
 * </ul>
 * {@link io.msgx.runner.http.HttpApi} wires them and owns the server's threads.
 */
package io.msgx.runner.http;
