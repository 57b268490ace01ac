package io.jperf.engine;

import io.jperf.options.OptionsException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;

/**
 * The shared secret of a {@code jperf serve} and its clients. It never goes on the wire: each end
 * proves it knows the secret with an HMAC-SHA256 over both ends' fresh nonces (see
 * {@link ServeAuth}). Read from a file ({@code --auth-token-file}) or the environment variable
 * {@value #ENVIRONMENT}; leading and trailing white space is dropped, at least
 * {@value #MIN_LENGTH} characters remain. Immutable; {@link #toString} does not show it.
 */
public final class AuthSecret {
    /** The environment variable that holds the secret when no file is given. */
    public static final String ENVIRONMENT = "JPERF_AUTH_TOKEN";
    /** The shortest secret accepted, in characters. */
    public static final int MIN_LENGTH = 16;

    private final byte[] key;

    private AuthSecret(byte[] key) {
        this.key = key;
        mac("warm-up"); // loads the JCE provider now, not inside a client's deadline (seconds in an emulated lab)
    }

    /**
     * @throws OptionsException when the secret is shorter than {@value #MIN_LENGTH} characters
     */
    public static AuthSecret of(String secret, String source) {
        String s = secret.strip();
        if (s.length() < MIN_LENGTH) {
            throw new OptionsException(source + ": the shared secret has " + s.length() + " characters; use at least "
                    + MIN_LENGTH + " (e.g. `head -c 32 /dev/urandom | base64`)");
        }
        return new AuthSecret(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @throws OptionsException when the file cannot be read or holds too short a secret
     */
    public static AuthSecret fromFile(Path file) {
        try {
            if (Files.size(file) > 4096) {
                throw new OptionsException("--auth-token-file " + file + ": more than 4096 bytes; the file holds one secret");
            }
            return of(Files.readString(file), "--auth-token-file " + file);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new OptionsException("--auth-token-file " + file + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    /** The secret in {@value #ENVIRONMENT}, if that is set and not empty. */
    public static Optional<AuthSecret> fromEnvironment() {
        String v = System.getenv(ENVIRONMENT);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(of(v, ENVIRONMENT));
    }

    /** HMAC-SHA256 over a label and the parts, each length-prefixed so that no two inputs read the same. */
    byte[] mac(String label, byte[]... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            update(mac, label.getBytes(StandardCharsets.US_ASCII));
            for (byte[] p : parts) {
                update(mac, p);
            }
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** Compares a proof with the expected one in constant time. */
    static boolean same(byte[] expected, byte[] actual) {
        return actual != null && MessageDigest.isEqual(expected, actual);
    }

    private static void update(Mac mac, byte[] part) {
        mac.update(new byte[] {(byte) (part.length >>> 8), (byte) part.length});
        mac.update(part);
    }

    @Override
    public String toString() {
        return "AuthSecret[" + key.length + " bytes, not shown]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuthSecret a && MessageDigest.isEqual(key, a.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key);
    }
}
