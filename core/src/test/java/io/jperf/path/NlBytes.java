package io.jperf.path;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Hand-building netlink bytes (little-endian, as on x86_64/aarch64) for the codec tests. */
final class NlBytes {

    private NlBytes() {
    }

    static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replaceAll("\\s+", ""));
    }

    static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    static byte[] u32(long v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
    }

    static byte[] u16(int v) {
        return ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort((short) v).array();
    }

    static byte[] cstr(String s) {
        return cat(s.getBytes(StandardCharsets.US_ASCII), new byte[] {0});
    }

    static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** rtattr: u16 len (4 + value), u16 type, value, zero padding to 4. */
    static byte[] attr(int type, byte[] value) {
        int len = 4 + value.length;
        return cat(u16(len), u16(type), value, new byte[(4 - len % 4) % 4]);
    }

    /** nlmsghdr + body; the body is not padded (callers pad via attrs). */
    static byte[] msg(int type, int flags, int seq, byte[]... body) {
        byte[] b = cat(body);
        return cat(u32(16 + b.length), u16(type), u16(flags), u32(seq), u32(0), b);
    }

    static byte[] ipv4(int a, int b, int c, int d) {
        return new byte[] {(byte) a, (byte) b, (byte) c, (byte) d};
    }
}
