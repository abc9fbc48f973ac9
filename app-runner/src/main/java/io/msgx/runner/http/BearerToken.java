package io.msgx.runner.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Objects;

/**
 * The configured bearer token, compared in constant time: both sides are hashed (SHA-256) first, so neither the
 * content nor the length of the token shows in the time a comparison takes. Never printed.
 */
final class BearerToken {

    /** What an {@code Authorization} header carried. */
    enum Verdict { MISSING, WRONG, VALID }

    private static final String SCHEME = "bearer ";

    private final byte[] expectedHash;

    BearerToken(String token) {
        Objects.requireNonNull(token, "token");
        expectedHash = sha256(token);
    }

    /** Judge an {@code Authorization} header value (null when absent); the scheme is case-insensitive. */
    Verdict judge(String authorization) {
        if (authorization == null || authorization.length() < SCHEME.length()
                || !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals(SCHEME)) {
            return Verdict.MISSING;
        }
        var presented = authorization.substring(SCHEME.length()).strip();
        return MessageDigest.isEqual(expectedHash, sha256(presented)) ? Verdict.VALID : Verdict.WRONG;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM; every Java 17 runtime has it", e);
        }
    }

    @Override
    public String toString() {
        return "BearerToken[(set)]";
    }
}
