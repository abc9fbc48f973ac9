package io.msgx.runner.http;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The credentials in force on the HTTP side (D-145): each found by its secret's hash. Immutable; a changed
 * credentials file makes a new one ({@link CredentialSource}).
 *
 * <p>The file holds one credential per line, {@code <name> <role>[,<role>...] sha256:<hex>}; blank lines and lines
 * starting with {@code #} are skipped. Names are unique, and so are secrets.
 */
public final class Credentials {

    private static final Credentials NONE = new Credentials(List.of());

    private final List<Credential> all;
    private final Map<ByteBuffer, Credential> bySecretHash = new HashMap<>();

    private Credentials(List<Credential> all) {
        this.all = List.copyOf(all);
        var names = new HashMap<String, Credential>();
        for (var credential : all) {
            if (names.put(credential.name(), credential) != null) {
                throw new IllegalArgumentException("credential '" + credential.name() + "' is named twice");
            }
            if (bySecretHash.put(ByteBuffer.wrap(credential.secretHash()), credential) != null) {
                throw new IllegalArgumentException("credential '" + credential.name()
                        + "' has the secret of another one; give each client its own");
            }
        }
    }

    /** No credential at all: nothing but health (and metrics, when open) answers. */
    public static Credentials none() {
        return NONE;
    }

    public static Credentials of(List<Credential> credentials) {
        return credentials.isEmpty() ? NONE : new Credentials(credentials);
    }

    /**
     * Read a credentials file's lines.
     *
     * @param where names the file in errors
     * @throws IllegalArgumentException naming the line that cannot be read, and what was expected
     */
    public static Credentials parse(List<String> lines, String where) {
        var read = new ArrayList<Credential>();
        for (int i = 0; i < lines.size(); i++) {
            var line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            var parts = line.split("\\s+");
            try {
                if (parts.length != 3) {
                    throw new IllegalArgumentException("expected '<name> <role>[,<role>...] sha256:<64 hex digits>'");
                }
                var roles = EnumSet.noneOf(Role.class);
                for (var role : parts[1].split(",")) {
                    roles.add(Role.of(role));
                }
                read.add(new Credential(parts[0], roles, hash(parts[2])));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        try {
            return of(read);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static byte[] hash(String text) {
        if (!text.startsWith(Credential.HASH_PREFIX)) {
            throw new IllegalArgumentException("the hash must start with '" + Credential.HASH_PREFIX
                    + "' (write it with 'msgexchange credential new' or 'credential hash'), got '"
                    + (text.length() > 12 ? text.substring(0, 12) + "…" : text) + "'");
        }
        var hex = text.substring(Credential.HASH_PREFIX.length());
        if (hex.length() != 64) {
            throw new IllegalArgumentException("a SHA-256 hash has 64 hex digits, got " + hex.length());
        }
        try {
            return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the hash is not hexadecimal");
        }
    }

    /** This set with {@code more} added (the legacy token's credential beside the file's). */
    Credentials plus(List<Credential> more) {
        var joined = new ArrayList<>(all);
        joined.addAll(more);
        return of(joined);
    }

    /** The credential whose secret was presented; empty when none. */
    public Optional<Credential> bySecret(String presented) {
        if (presented == null) {
            return Optional.empty();
        }
        var hash = Credential.sha256(presented);
        var found = bySecretHash.get(ByteBuffer.wrap(hash));
        return found != null && MessageDigest.isEqual(found.secretHash(), hash) ? Optional.of(found) : Optional.empty();
    }

    /** Whether any credential holds {@code role}: when none does, what needs it is off (403), never open. */
    public boolean anyMay(Role role) {
        return all.stream().anyMatch(credential -> credential.may(role));
    }

    public List<Credential> all() {
        return all;
    }

    public boolean isEmpty() {
        return all.isEmpty();
    }

    @Override
    public String toString() {
        return all.isEmpty() ? "no credential" : all.size() + " credential(s): " + all;
    }
}
