package io.jperf.wire;

import io.jperf.result.EndpointInfo;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One QP's connection parameters as perftest sends them over TCP: a NUL-terminated text line of
 * colon-separated hex fields, {@value #SIZE} bytes without a GID and {@value #SIZE_WITH_GID} with one:
 * <pre>
 * LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:SSSSSSSS\0                       (no GID)
 * LLLL:OOOO:QQQQQQ:PPPPPP:RRRRRRRR:VVVVVVVVVVVVVVVV:gg:gg:...:gg:SSSSSSSS:\0      (16 GID bytes)
 * </pre>
 * (LID, outstanding reads, QPN, PSN, RKey, VAddr, SRQN; {@code %04x:%04x:%06x:%06x:%08x:%016llx:} ...).
 * Both sides must agree on sending a GID: the reader expects the length its own message has.
 * Immutable (the GID array is copied in and out).
 *
 * @param lid 16-bit local identifier (0 on RoCE)
 * @param outReads 16-bit outstanding RDMA reads
 * @param qpn 24-bit QP number
 * @param psn 24-bit initial packet sequence number
 * @param rkey 32-bit remote key (compare unsigned)
 * @param vaddr 64-bit buffer address (compare unsigned)
 * @param srqn 32-bit SRQ number (0 without SRQ)
 * @param gid 16 GID bytes, or null when no GID index is used
 */
public record KeyMessage(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, int srqn, byte[] gid) {

    /** Encoded length without a GID, including the terminating NUL. */
    public static final int SIZE = 59;
    /** Encoded length with a GID, including the terminating NUL. */
    public static final int SIZE_WITH_GID = 108;

    private static final int GID_START = 50;
    private static final int SRQN_START_WITH_GID = GID_START + 16 * 3;

    public KeyMessage {
        checkRange("LID", lid, 0xffff);
        checkRange("outstanding reads", outReads, 0xffff);
        checkRange("QPN", qpn, 0xffffff);
        checkRange("PSN", psn, 0xffffff);
        if (gid != null) {
            if (gid.length != 16) {
                throw new IllegalArgumentException("GID must be 16 bytes (got " + gid.length + ")");
            }
            gid = gid.clone();
        }
    }

    private static void checkRange(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " 0x" + Integer.toHexString(value)
                    + " does not fit perftest's key message (max 0x" + Integer.toHexString(max) + ")");
        }
    }

    /** The GID bytes (a copy), or null. */
    @Override
    public byte[] gid() {
        return gid == null ? null : gid.clone();
    }

    /** Whether this message carries a GID (and so encodes to {@value #SIZE_WITH_GID} bytes). */
    public boolean hasGid() {
        return gid != null;
    }

    /** These values as a result record, with the GID index the sending side used (-1 for none). */
    public EndpointInfo toEndpointInfo(int gidIndex) {
        return new EndpointInfo(lid, qpn, psn, rkey, vaddr, gid, gidIndex);
    }

    /** The encoded length of this message: {@value #SIZE} or {@value #SIZE_WITH_GID}. */
    public int encodedSize() {
        return gid == null ? SIZE : SIZE_WITH_GID;
    }

    /** The exact bytes perftest writes for these values, NUL included. */
    public byte[] encode() {
        // perftest's "%04x:%04x:%06x:%06x:%08x:%016lx:" and so on, without java.util.Formatter: a send test
        // sends this in the sync right before it measures, where the JIT's compiles of the Formatter ran
        // into the measured rounds
        StringBuilder sb = new StringBuilder(SIZE_WITH_GID);
        hex(sb, Integer.toHexString(lid), 4).append(':');
        hex(sb, Integer.toHexString(outReads), 4).append(':');
        hex(sb, Integer.toHexString(qpn), 6).append(':');
        hex(sb, Integer.toHexString(psn), 6).append(':');
        hex(sb, Integer.toHexString(rkey), 8).append(':');
        hex(sb, Long.toHexString(vaddr), 16).append(':');
        if (gid == null) {
            hex(sb, Integer.toHexString(srqn), 8);
        } else {
            for (byte b : gid) {
                hex(sb, Integer.toHexString(b & 0xff), 2).append(':');
            }
            hex(sb, Integer.toHexString(srqn), 8).append(':');
        }
        sb.append('\0');
        byte[] out = sb.toString().getBytes(StandardCharsets.US_ASCII);
        if (out.length != encodedSize()) {
            throw new IllegalStateException("key message encoded to " + out.length + " bytes");
        }
        return out;
    }

    /** Appends {@code digits}, lower-case hex, zero-padded to at least {@code width} (printf's {@code %0<width>x}). */
    private static StringBuilder hex(StringBuilder sb, String digits, int width) {
        for (int i = digits.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(digits);
    }

    /**
     * Parses a message of exactly {@value #SIZE} or {@value #SIZE_WITH_GID} bytes, checking every
     * separator, field width, hex digit and the terminating NUL.
     *
     * @throws ProtocolException naming the first thing that is wrong and showing the received text
     */
    public static KeyMessage decode(byte[] message) throws ProtocolException {
        if (message.length != SIZE && message.length != SIZE_WITH_GID) {
            throw new ProtocolException("key message has " + message.length + " bytes; perftest sends "
                    + SIZE + " (no GID) or " + SIZE_WITH_GID + " (with GID)");
        }
        Parser p = new Parser(message);
        int lid = (int) p.hex(4, "LID");
        p.colon();
        int outReads = (int) p.hex(4, "outstanding reads");
        p.colon();
        int qpn = (int) p.hex(6, "QPN");
        p.colon();
        int psn = (int) p.hex(6, "PSN");
        p.colon();
        int rkey = (int) p.hex(8, "RKey");
        p.colon();
        long vaddr = p.hex(16, "VAddr");
        p.colon();
        byte[] gid = null;
        if (message.length == SIZE_WITH_GID) {
            gid = new byte[16];
            for (int i = 0; i < 16; i++) {
                gid[i] = (byte) p.hex(2, "GID byte " + i);
                p.colon();
            }
        } else if (message[GID_START + 2] == ':') {
            throw p.error("the peer sends a GID but this side does not: both sides must use a GID"
                    + " (-x/--gid-index, always on RoCE) or neither");
        }
        int srqn = (int) p.hex(8, "SRQN");
        if (gid != null) {
            p.colon();
        }
        p.nul();
        return new KeyMessage(lid, outReads, qpn, psn, rkey, vaddr, srqn, gid);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyMessage k && lid == k.lid && outReads == k.outReads && qpn == k.qpn
                && psn == k.psn && rkey == k.rkey && vaddr == k.vaddr && srqn == k.srqn
                && Arrays.equals(gid, k.gid);
    }

    @Override
    public int hashCode() {
        int h = Integer.hashCode(lid);
        h = 31 * h + outReads;
        h = 31 * h + qpn;
        h = 31 * h + psn;
        h = 31 * h + rkey;
        h = 31 * h + Long.hashCode(vaddr);
        h = 31 * h + srqn;
        return 31 * h + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "KeyMessage[lid=%#x, outReads=%d, qpn=%#x, psn=%#x, rkey=%#x, vaddr=%#x,"
                + " srqn=%#x, gid=%s]", lid, outReads, qpn, psn, rkey, vaddr, srqn,
                gid == null ? "none" : HexFormat.ofDelimiter(":").formatHex(gid));
    }

    /** A cursor over the fixed layout; every error quotes the received text. */
    private static final class Parser {
        private final byte[] msg;
        private int pos;

        Parser(byte[] msg) {
            this.msg = msg;
        }

        long hex(int width, String field) throws ProtocolException {
            long v = 0;
            for (int i = 0; i < width; i++) {
                int d = Character.digit(msg[pos + i], 16);
                if (d < 0 || msg[pos + i] > 'f') {
                    throw error(field + " at offset " + pos + " is not " + width + " hex digits");
                }
                v = (v << 4) | d;
            }
            pos += width;
            return v;
        }

        void colon() throws ProtocolException {
            if (msg[pos] != ':') {
                throw error("expected ':' at offset " + pos);
            }
            pos++;
        }

        void nul() throws ProtocolException {
            if (pos != msg.length - 1 || msg[pos] != 0) {
                throw error("expected the terminating NUL at offset " + pos);
            }
        }

        ProtocolException error(String what) {
            return new ProtocolException("invalid key message from the peer: " + what + "; received \""
                    + printable(msg) + "\"");
        }

        private static String printable(byte[] bytes) {
            StringBuilder sb = new StringBuilder(bytes.length);
            for (byte b : bytes) {
                int c = b & 0xff;
                if (c >= 0x20 && c < 0x7f) {
                    sb.append((char) c);
                } else {
                    sb.append(String.format(Locale.ROOT, "\\x%02x", c));
                }
            }
            return sb.toString();
        }
    }
}
