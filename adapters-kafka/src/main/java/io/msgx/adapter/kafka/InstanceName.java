package io.msgx.adapter.kafka;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/** The name an instance goes by in {@code ce_source} when {@code msgx.instance} names none: this host's. */
public final class InstanceName {

    private InstanceName() {
    }

    /**
     * This host's name, cut to its first label and to the characters a URI path segment keeps ({@code app-1} of
     * {@code app-1.airport.local}); {@code localhost} when the host has no name to give.
     */
    public static String ofThisHost() {
        return OfThisHost.NAME;
    }

    /** Looked up once: a host whose name service is slow makes only the first caller wait. */
    private static final class OfThisHost {
        static final String NAME = lookUp();
    }

    private static String lookUp() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        var label = host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
        var name = label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._~-]", "-");
        if (name.length() > 64) {
            name = name.substring(0, 64);
        }
        return name.isEmpty() ? "localhost" : name;
    }
}
