package io.jperf.wire;

import java.io.IOException;
import java.util.Map;

/** The wire package's internals the serve fuzzer needs from another package (raw exchanges, the codec). */
public final class WireAccess {
    private WireAccess() {
    }

    /** One raw exchange of {@code ours} (the client writes, then reads as many bytes). */
    public static byte[] exchange(ControlChannel channel, byte[] ours) throws IOException {
        return channel.exchange(ours, "fuzzed exchange");
    }

    public static byte[] encode(Map<String, String> fields) {
        return JperfExtension.encode(fields);
    }

    public static Map<String, String> decode(byte[] bytes) throws ProtocolException {
        return JperfExtension.decode(bytes);
    }
}
