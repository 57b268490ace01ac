package io.jperf.engine;

import io.jperf.wire.ControlChannel;
import io.jperf.wire.JperfExtension;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Challenge-response authentication of a {@code jperf serve} client over the control connection,
 * inside the jperf extension exchange; the shared secret never goes on the wire.
 *
 * <ol>
 * <li>The client sends its request. A server with a secret answers, before reading anything of the
 * request, with a challenge: a fresh 32-byte server nonce ({@value #SERVER_NONCE}), and a refusal
 * ({@code serve.error}) that a client without a secret prints as it is.</li>
 * <li>The client sends a fresh 32-byte client nonce and its proof, HMAC-SHA256(secret,
 * "jperf-auth-v1 client", server nonce, client nonce).</li>
 * <li>The server checks the proof (constant time); only then it reads the request, and its answer
 * carries its own proof, HMAC-SHA256(secret, "jperf-auth-v1 server", client nonce, server nonce),
 * which the client checks, so a client also knows it reached a server that holds the secret.</li>
 * </ol>
 * A captured exchange does not help an attacker: the next server nonce is different. Stateless.
 *
 * <p>Public so that other servers on the jperf extension exchange (the {@code jperf matrix} agent)
 * authenticate their clients the same way.
 */
public final class ServeAuth {
    static final String SERVER_NONCE = "auth.server_nonce";
    static final String CLIENT_NONCE = "auth.client_nonce";
    static final String CLIENT_PROOF = "auth.proof";
    /** In the server's real answer: its proof, present only when the client's secret was checked and matched. */
    public static final String SERVER_PROOF = "auth.server_proof";
    /** In a server's answer: why it refuses (one line, escaped), e.g. a failed authentication. */
    public static final String REFUSAL = ServeRequest.ERROR;
    private static final String SCHEME = "auth.scheme";
    private static final String SCHEME_NAME = "hmac-sha256-v1";
    private static final int NONCE_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Seeds the random source now, not inside a client's deadline. */
    static void warmUp() {
        nonce();
    }
    private static final HexFormat HEX = HexFormat.of();

    private ServeAuth() {
    }

    /**
     * The server's side, called with the client's request read and before anything of it is used.
     *
     * @return the fields the server's answer carries (its proof)
     * @throws TestFailedException when the client does not prove it knows the secret (the caller still
     *         answers, with {@link #REFUSAL})
     */
    public static Map<String, String> challenge(ControlChannel channel, AuthSecret secret) throws IOException {
        byte[] serverNonce = nonce();
        Map<String, String> ask = new LinkedHashMap<>();
        ask.put(ServeRequest.SERVED, "true");
        ask.put(SCHEME, SCHEME_NAME);
        ask.put(SERVER_NONCE, HEX.formatHex(serverNonce));
        ask.put(ServeRequest.ERROR, "this jperf serve requires authentication: give the client its shared secret"
                + " (--auth-token-file FILE or the " + AuthSecret.ENVIRONMENT + " environment variable)");
        Map<String, String> reply = JperfExtension.ask(channel, ask, "authentication");
        byte[] clientNonce = hex(reply.get(CLIENT_NONCE));
        byte[] proof = hex(reply.get(CLIENT_PROOF));
        if (clientNonce == null || clientNonce.length != NONCE_BYTES
                || !AuthSecret.same(secret.mac("jperf-auth-v1 client", serverNonce, clientNonce), proof)) {
            throw new ServeRefusedException("authentication failed: the client's proof does not match this server's"
                    + " shared secret (check that both ends use the same --auth-token-file or "
                    + AuthSecret.ENVIRONMENT + ")", null, null);
        }
        return Map.of(SERVER_PROOF, HEX.formatHex(secret.mac("jperf-auth-v1 server", clientNonce, serverNonce)));
    }

    /**
     * The client's side: when the server's answer is a challenge and this client has a secret,
     * proves it and returns the server's real answer; otherwise returns the answer as it came (a
     * challenge to a client without a secret carries the refusal it prints).
     *
     * @throws TestFailedException when the server's own proof does not match (it does not hold the secret)
     */
    public static Map<String, String> respond(ControlChannel channel, Map<String, String> answer,
                                              Optional<AuthSecret> secret)
            throws IOException {
        byte[] serverNonce = hex(answer.get(SERVER_NONCE));
        if (serverNonce == null || secret.isEmpty()) {
            return answer;
        }
        if (serverNonce.length != NONCE_BYTES) {
            throw new TestFailedException("the jperf serve peer sent a malformed authentication challenge");
        }
        byte[] clientNonce = nonce();
        Map<String, String> proof = new LinkedHashMap<>();
        proof.put(CLIENT_NONCE, HEX.formatHex(clientNonce));
        proof.put(CLIENT_PROOF, HEX.formatHex(secret.get().mac("jperf-auth-v1 client", serverNonce, clientNonce)));
        Map<String, String> real = JperfExtension.exchange(channel, proof, "authentication");
        if (real.containsKey(ServeRequest.ERROR)) {
            return real;
        }
        if (!AuthSecret.same(secret.get().mac("jperf-auth-v1 server", clientNonce, serverNonce),
                hex(real.get(SERVER_PROOF)))) {
            throw new TestFailedException("the jperf serve peer's authentication proof does not match: it does not"
                    + " hold the same shared secret; check the server's --auth-token-file");
        }
        return real;
    }

    private static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    private static byte[] hex(String text) {
        if (text == null || text.length() > 2 * NONCE_BYTES) {
            return null;
        }
        try {
            return HEX.parseHex(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
