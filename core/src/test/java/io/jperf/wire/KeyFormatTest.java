package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The binary {@code pingpong_dest} layouts, byte by byte, and which peer gets which. */
class KeyFormatTest {
    private static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff0a140002");
    private static final KeyMessage KEY = new KeyMessage(0x1234, 1, 0xabcdef, 0x123456, 0xcafef00d,
            0x00007f0012345000L, 0, GID);

    @Test
    void the56ByteLayoutOf606PutsTheGidAt32() throws Exception {
        byte[] b = KeyFormat.DEST_56.encode(KEY, 3);
        assertEquals(56, b.length);
        ByteBuffer bb = ByteBuffer.wrap(b);
        assertEquals(0x1234, bb.getInt(0));
        assertEquals(1, bb.getInt(4));
        assertEquals(0xabcdef, bb.getInt(8));
        assertEquals(0x123456, bb.getInt(12));
        assertEquals(0xcafef00d, bb.getInt(16));
        assertEquals(0x00007f0012345000L, bb.getLong(24));
        byte[] gid = new byte[16];
        bb.get(32, gid);
        assertArrayEquals(GID, gid);
        assertEquals(0, bb.getInt(48), "srqn");
        assertEquals(3, bb.getInt(52), "gid_index");
        assertEquals(KEY, KeyFormat.DEST_56.decode(b));
    }

    @Test
    void the64ByteLayoutOf629PutsTheTailMarkersBeforeTheGid() throws Exception {
        byte[] b = KeyFormat.DEST_64.encode(KEY, 3);
        assertEquals(64, b.length);
        ByteBuffer bb = ByteBuffer.wrap(b);
        assertEquals(0x00007f0012345000L, bb.getLong(24));
        assertEquals(0L, bb.getLong(32), "tail_markers_vaddr");
        byte[] gid = new byte[16];
        bb.get(40, gid);
        assertArrayEquals(GID, gid);
        assertEquals(3, bb.getInt(60), "gid_index");
        assertEquals(KEY, KeyFormat.DEST_64.decode(b));
    }

    @Test
    void eachPerftestVersionGetsItsOwnLayout() {
        assertEquals(KeyFormat.DEST_56, KeyFormat.forRdmaCmPeer(PerftestVersion.parse("6.06")));
        assertEquals(KeyFormat.DEST_56, KeyFormat.forRdmaCmPeer(PerftestVersion.parse("6.28")));
        assertEquals(KeyFormat.DEST_64, KeyFormat.forRdmaCmPeer(PerftestVersion.parse("6.29")));
        assertEquals(KeyFormat.DEST_64, KeyFormat.forRdmaCmPeer(PerftestVersion.parse("7.0")));
    }

    @Test
    void aMessageOfTheOtherLayoutIsNamed() {
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> KeyFormat.DEST_56.decode(KeyFormat.DEST_64.encode(KEY, 0)));
        assertTrue(e.getMessage().contains("has 64 bytes"), e.getMessage());
    }

    @Test
    void aFieldOutOfPerftestsRangeIsAProtocolErrorNotACrash() {
        byte[] b = KeyFormat.DEST_56.encode(KEY, 0);
        ByteBuffer.wrap(b).putInt(8, 0x7f000000);
        ProtocolException e = assertThrows(ProtocolException.class, () -> KeyFormat.DEST_56.decode(b));
        assertTrue(e.getMessage().contains("does not parse"), e.getMessage());
    }
}
