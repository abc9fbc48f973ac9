package io.msgx.runner.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One named credential of the HTTP side: the name every audit line and audit row carries for what it does, its
 * roles, and the SHA-256 of its secret (the secret itself is never stored, D-145).
 *
 * <p>Secrets are made by {@code msgexchange credential new}: 32 random bytes, so a plain SHA-256 cannot be turned
 * back by guessing, and checking one costs a microsecond on every probe and scrape (a slow password hash protects
 * secrets people choose, which these are not).
 *
 * @param name       letters, digits, {@code . _ -}, at most 64
 * @param roles      at least one
 * @param secretHash the SHA-256 of the secret's UTF-8 bytes, 32 bytes
 */
public record Credential(String name, Set<Role> roles, byte[] secretHash) {

    /** How the hash is written in the credentials file. */
    public static final String HASH_PREFIX = "sha256:";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    public Credential {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("credential name '" + name
                    + "' must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
        roles = Set.copyOf(roles);
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("credential '" + name + "' has no role");
        }
        if (secretHash.length != 32) {
            throw new IllegalArgumentException("credential '" + name + "': the hash must be 32 bytes (SHA-256)");
        }
        secretHash = secretHash.clone();
    }

    /** Whether this credential may act as {@code role}. */
    public boolean may(Role role) {
        return roles.contains(role);
    }

    /** A fresh secret: 32 random bytes, URL-safe Base64 (43 characters). */
    public static String newSecret() {
        var bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The hash of a secret as the credentials file writes it: {@code sha256:<64 hex digits>}. */
    public static String hashOf(String secret) {
        return HASH_PREFIX + HexFormat.of().formatHex(sha256(secret));
    }

    static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.strip().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM; every Java 17 runtime has it", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Credential that && name.equals(that.name) && roles.equals(that.roles)
                && MessageDigest.isEqual(secretHash, that.secretHash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, roles);
    }

    /** Never shows the hash. */
    @Override
    public String toString() {
        return "Credential[" + name + " " + roles.stream().map(Role::wireName).sorted().toList() + "]";
    }
}
