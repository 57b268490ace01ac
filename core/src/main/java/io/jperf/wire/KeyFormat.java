package io.jperf.wire;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How a QP's {@link KeyMessage} travels. Over TCP perftest sends it as text ({@link #TEXT}); with
 * {@code -R} its control QP carries the raw {@code struct pingpong_dest}, whose layout grew in 6.29:
 * <pre>
 *                 lid out_reads qpn psn rkey (pad) vaddr tail_markers_vaddr gid srqn gid_index  size
 *   6.06 .. 6.28   0      4      8   12   16  20    24          -            32   48     52       56
 *   6.29 ..        0      4      8   12   16  20    24         32            40   56     60       64
 * </pre>
 * Integers are big-endian (perftest converts them when built with {@code HAVE_ENDIAN}, as every glibc
 * build is); the GID is raw; padding is ignored. A perftest reads exactly its own size from its posted
 * receive, so jperf writes and reads the layout of the peer's version ({@link #forRdmaCmPeer}).
 */
public enum KeyFormat {
    /** perftest's TCP text line (59 or 108 bytes, {@link KeyMessage#encode}). */
    TEXT(-1),
    /** The binary {@code pingpong_dest} of perftest 6.06 to 6.28. */
    DEST_56(56),
    /** The binary {@code pingpong_dest} of perftest 6.29 and later ({@code tail_markers_vaddr} added). */
    DEST_64(64);

    /** The first perftest version whose {@code pingpong_dest} is 64 bytes. */
    public static final double DEST_64_VERSION = 6.29;

    private final int binarySize;

    KeyFormat(int binarySize) {
        this.binarySize = binarySize;
    }

    /** The binary layout a peer of {@code version} sends and expects over its RDMA CM control QP. */
    public static KeyFormat forRdmaCmPeer(PerftestVersion version) {
        return version.atLeast(DEST_64_VERSION) ? DEST_64 : DEST_56;
    }

    /** The encoded length of {@code key} in this format. */
    public int size(KeyMessage key) {
        return this == TEXT ? key.encodedSize() : binarySize;
    }

    /** Whether this is a binary {@code pingpong_dest} layout. */
    public boolean binary() {
        return this != TEXT;
    }

    /**
     * The bytes of {@code key} in this format.
     *
     * @param gidIndex the GID index the sender uses (binary layouts carry it; -1 for none)
     */
    public byte[] encode(KeyMessage key, int gidIndex) {
        if (this == TEXT) {
            return key.encode();
        }
        ByteBuffer b = ByteBuffer.allocate(binarySize);
        b.putInt(0, key.lid()).putInt(4, key.outReads()).putInt(8, key.qpn()).putInt(12, key.psn())
                .putInt(16, key.rkey()).putLong(24, key.vaddr());
        int gidAt = this == DEST_64 ? 40 : 32;
        byte[] gid = key.hasGid() ? key.gid() : new byte[16];
        b.put(gidAt, gid);
        b.putInt(gidAt + 16, key.srqn()).putInt(gidAt + 20, gidIndex);
        return b.array();
    }

    /**
     * Parses one message of exactly this format's size.
     *
     * @throws ProtocolException when the size is wrong or a field does not fit perftest's ranges (the
     *     peer uses another layout than its version suggests)
     */
    public KeyMessage decode(byte[] message) throws ProtocolException {
        if (this == TEXT) {
            return KeyMessage.decode(message);
        }
        if (message.length != binarySize) {
            throw new ProtocolException("the peer's binary pingpong_dest has " + message.length + " bytes; perftest "
                    + (this == DEST_64 ? "6.29 and later send 64" : "6.06 to 6.28 send 56"));
        }
        ByteBuffer b = ByteBuffer.wrap(message);
        int gidAt = this == DEST_64 ? 40 : 32;
        byte[] gid = Arrays.copyOfRange(message, gidAt, gidAt + 16);
        try {
            return new KeyMessage(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(24),
                    b.getInt(gidAt + 16), gid);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("the peer's " + binarySize + "-byte pingpong_dest does not parse (" + e.getMessage()
                    + "): its perftest version sends another layout than the version it reported", e);
        }
    }
}
