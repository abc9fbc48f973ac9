package io.msgx.runner.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * A TCP proxy on an ephemeral loopback port in front of one real server (PostgreSQL, MariaDB), so a test can take
 * the service away from the pipeline without stopping the server every other test shares.
 *
 * <ul>
 *   <li>{@link #goDown()}: every open connection is cut (reset) and every new one is reset as soon as it is
 *       accepted — to the client it looks like a server that went away;</li>
 *   <li>{@link #comeBack()}: connections are forwarded again;</li>
 *   <li>{@link #freeze()}: the link hangs: every connection stays open and nothing flows either way, new ones are
 *       accepted and held too (a hung relay, a silent partition: no reset, no answer); {@link #thaw()} lets the bytes
 *       held back through;</li>
 *   <li>{@link #cutOnce}: one connection is cut at a chosen moment of the client's byte stream (e.g. the
 *       {@code COMMIT} of a transaction that wrote an outbox payload), before or after those bytes reach the
 *       server — a transaction lost mid-way, or a commit whose answer never arrives.</li>
 * </ul>
 * Bytes are forwarded unchanged; the markers are matched on the client's bytes read as ISO-8859-1, so they must be
 * plain ASCII text the client sends (SQL keywords, literal values, bound string parameters).
 */
public final class ToxicProxy implements AutoCloseable {

    /**
     * A one-shot cut. With {@code answerMarker} null: the connection whose client sends {@code clientMarker} is cut
     * before the server sees those bytes. Otherwise: once a client has sent {@code clientMarker}, the next server
     * bytes on that connection holding {@code answerMarker} are dropped and the connection is cut.
     */
    private record CutPlan(String clientMarker, String answerMarker, CountDownLatch fired) {
    }

    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicReference<CutPlan> plan = new AtomicReference<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private final Thread acceptor;
    private volatile boolean down;
    private volatile boolean frozen;
    private volatile boolean closed;

    private ToxicProxy(InetSocketAddress target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "toxic-proxy-" + listener.getLocalPort() + "-to-" + target.getPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy forwarding to {@code host:port}, listening on a free loopback port. */
    public static ToxicProxy to(String host, int port) {
        try {
            return new ToxicProxy(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new IllegalStateException("could not open a proxy listener: " + e, e);
        }
    }

    /** A proxy in front of the server a JDBC URL names ({@code defaultPort} when the URL gives none). */
    public static ToxicProxy inFrontOf(String jdbcUrl, int defaultPort) {
        var matcher = Pattern.compile("//([^/:?]+)(?::(\\d+))?").matcher(jdbcUrl);
        if (!matcher.find()) {
            throw new IllegalArgumentException("no host in " + jdbcUrl);
        }
        return to(matcher.group(1), matcher.group(2) == null ? defaultPort : Integer.parseInt(matcher.group(2)));
    }

    /** The database a JDBC URL names ({@code postgres} when it names none), to name it again behind the proxy. */
    public static String databaseOf(String jdbcUrl) {
        var matcher = Pattern.compile("//[^/]+/([^?]+)").matcher(jdbcUrl);
        return matcher.find() ? matcher.group(1) : "postgres";
    }

    /** The loopback port the pipeline should connect to instead of the server's. */
    public int port() {
        return listener.getLocalPort();
    }

    /** The service goes away: open connections are reset, new ones are reset at once. */
    public void goDown() {
        down = true;
        cutAll();
    }

    /** The service is back: new connections are forwarded. */
    public void comeBack() {
        down = false;
    }

    /** The link hangs: connections stay open, nothing flows either way until {@link #thaw}. */
    public void freeze() {
        frozen = true;
    }

    /** The link flows again, the bytes held back first. */
    public void thaw() {
        frozen = false;
    }

    boolean isDown() {
        return down;
    }

    /** Reset every open connection; new ones are still forwarded (unless the proxy is down). */
    void cutAll() {
        links.forEach(Link::cut);
    }

    /**
     * Cut, once, the first connection whose client sends {@code marker}, before the server gets those bytes. Returns
     * a latch that opens when the cut has happened.
     */
    CountDownLatch cutWhenClientSends(String marker) {
        var next = new CutPlan(Objects.requireNonNull(marker), null, new CountDownLatch(1));
        plan.set(next);
        return next.fired();
    }

    /**
     * Cut, once, a connection whose client has sent {@code requestMarker} when the server's answer holding
     * {@code answerMarker} comes, before the client gets it: the server did the work, the client never learns it.
     * Returns a latch that opens when the cut has happened.
     */
    CountDownLatch cutWhenServerAnswers(String requestMarker, String answerMarker) {
        var next = new CutPlan(Objects.requireNonNull(requestMarker), Objects.requireNonNull(answerMarker),
                new CountDownLatch(1));
        plan.set(next);
        return next.fired();
    }

    /** Connections forwarded so far. */
    public int accepted() {
        return accepted.get();
    }

    /** Connections reset on arrival while down. */
    public int refused() {
        return refused.get();
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        cutAll();
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return; // closed
            }
            if (down) {
                refused.incrementAndGet();
                reset(client);
                continue;
            }
            try {
                // No Nagle on either leg: the drivers send a statement as several small writes, and Nagle with
                // delayed ACKs held each round trip up to 40 ms (a group of 17 messages took 340 ms through the proxy).
                client.setTcpNoDelay(true);
                var server = new Socket();
                server.setTcpNoDelay(true);
                server.connect(target, 2_000);
                var link = new Link(client, server);
                links.add(link);
                accepted.incrementAndGet();
                link.start();
            } catch (IOException e) {
                reset(client);
            }
        }
    }

    /** Close with SO_LINGER 0: the peer gets a reset, not an orderly end. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException ignored) {
            // closed already
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closed already
        }
    }

    /** One proxied connection: two copying threads. */
    private final class Link {
        private final Socket client;
        private final Socket server;
        /** The client sent the request marker of the current answer cut. */
        private volatile boolean armed;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            var name = "toxic-proxy-" + client.getPort();
            var up = new Thread(() -> copy(client, server, true), name + "-up");
            var down = new Thread(() -> copy(server, client, false), name + "-down");
            up.setDaemon(true);
            down.setDaemon(true);
            up.start();
            down.start();
        }

        void cut() {
            reset(client);
            reset(server);
            links.remove(this);
        }

        private void holdWhileFrozen() {
            while (frozen && !closed) {
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }

        /** Copy one direction, cutting when the current plan says so; the last bytes are kept so a split marker is found. */
        private void copy(Socket from, Socket to, boolean fromClient) {
            var buffer = new byte[16 * 1024];
            var tail = "";
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    var current = plan.get();
                    if (current != null) {
                        var seen = tail + new String(buffer, 0, read, StandardCharsets.ISO_8859_1);
                        tail = seen.substring(Math.max(0, seen.length() - 64));
                        if (fromClient && seen.contains(current.clientMarker())) {
                            if (current.answerMarker() == null) {
                                if (plan.compareAndSet(current, null)) {
                                    cut();
                                    current.fired().countDown();
                                    return;
                                }
                            } else {
                                armed = true;
                            }
                        } else if (!fromClient && armed && current.answerMarker() != null
                                && seen.contains(current.answerMarker()) && plan.compareAndSet(current, null)) {
                            cut();
                            current.fired().countDown();
                            return;
                        }
                    }
                    holdWhileFrozen();
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away
            } finally {
                cut();
            }
        }
    }
}
