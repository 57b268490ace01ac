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
        Map<String, String> theirs = decode(channel.readVariable(MAX_BYTES, step));
        channel.writeVariable(encode(answer.apply(theirs)), step);
        return theirs;
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

    static Map<String, String> decode(byte[] bytes) throws ProtocolException {
        Map<String, String> fields = new LinkedHashMap<>();
        String text = new String(bytes, StandardCharsets.UTF_8);
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new ProtocolException("malformed jperf extension field from the peer: '" + line + "'");
            }
            fields.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return fields;
    }
}
