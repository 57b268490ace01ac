package io.jperf.wire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What two jperf ends exchange on top of perftest's protocol, right after the preamble, when both
 * advertised the jperf marker ({@link PerftestVersion#isJperf()}): a map of text fields — the
 * symmetric test parameters, so a mismatch is refused before any QP is connected, and the path
 * record of each end. Encoded as {@code key=value} lines in UTF-8; keys and values may not contain
 * line breaks or '='-in-keys. A perftest peer never sees this exchange.
 */
public final class JperfExtension {
    /** The longest extension message accepted. */
    public static final int MAX_BYTES = 64 * 1024;
    /**
     * The longest message a server reads in {@link #respond} and {@link #ask}: a client's request
     * (about 1 KiB) or its authentication, not path records; small, so that a hostile client cannot
     * make the server churn through large messages.
     */
    public static final int MAX_REQUEST_BYTES = 8 * 1024;
    /** The most fields one message may carry. */
    public static final int MAX_FIELDS = 256;
    /** The longest key: letters, digits and {@code . _ - / :} only. */
    public static final int MAX_KEY = 64;

    private JperfExtension() {
    }

    /** Sends ours and returns the peer's fields. */
    public static Map<String, String> exchange(ControlChannel channel, Map<String, String> ours, String step)
            throws IOException {
        return decode(channel.exchangeVariable(encode(ours), MAX_BYTES, step));
    }

    /**
     * The server's side of an exchange whose answer depends on the question: reads the client's
     * fields, then sends what {@code answer} makes of them. If {@code answer} throws, the exception
     * propagates and nothing is sent (the caller reports it and closes the channel).
     */
    public static Map<String, String> respond(ControlChannel channel,
                                              java.util.function.Function<Map<String, String>, Map<String, String>> answer,
                                              String step) throws IOException {
        if (channel.role() != Role.SERVER) {
            throw new IllegalStateException("only the server answers; the client calls exchange");
        }
        Map<String, String> theirs = decode(channel.readVariable(MAX_REQUEST_BYTES, step));
        channel.writeVariable(encode(answer.apply(theirs)), step);
        return theirs;
    }

    /**
     * The server's side of an extra round inside an answer (e.g. an authentication challenge):
     * sends {@code ours}, then reads the client's fields.
     */
    public static Map<String, String> ask(ControlChannel channel, Map<String, String> ours, String step)
            throws IOException {
        if (channel.role() != Role.SERVER) {
            throw new IllegalStateException("only the server asks; the client calls exchange");
        }
        channel.writeVariable(encode(ours), step);
        return decode(channel.readVariable(MAX_REQUEST_BYTES, step));
    }

    static byte[] encode(Map<String, String> fields) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : fields.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key.isEmpty() || key.contains("=") || key.contains("\n") || value.contains("\n")) {
                throw new IllegalArgumentException("field not encodable: " + key + "=" + value);
            }
            sb.append(key).append('=').append(value).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses the peer's fields. Keys are checked (length, characters, no repeats, at most
     * {@link #MAX_FIELDS}); values are kept as sent and must be made safe before they are shown
     * ({@link PeerText}).
     *
     * @throws ProtocolException naming the first bad field, its text escaped and cut
     */
    static Map<String, String> decode(byte[] bytes) throws ProtocolException {
        Map<String, String> fields = new LinkedHashMap<>();
        String text = new String(bytes, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0 || eq > MAX_KEY || !validKey(line, eq)) {
                throw new ProtocolException("malformed jperf extension field from the peer: '" + PeerText.line(line) + "'");
            }
            if (fields.size() == MAX_FIELDS) {
                throw new ProtocolException("the peer's jperf extension message has more than " + MAX_FIELDS + " fields");
            }
            if (fields.put(line.substring(0, eq), line.substring(eq + 1)) != null) {
                throw new ProtocolException("the peer's jperf extension message repeats the field '"
                        + line.substring(0, eq) + "'");
            }
        }
        return fields;
    }

    private static boolean validKey(String line, int end) {
        for (int i = 0; i < end; i++) {
            char c = line.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-' || c == '/' || c == ':';
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
