package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyMessageTest {

    private static final byte[] GID = {(byte) 0xfe, (byte) 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22,
        (byte) 0xff, (byte) 0xfe, 0x33, 0x44, 0x55};

    /** "%04x:%04x:%06x:%06x:%08x:%016llx:%08x" and a NUL, written out by hand. */
    private static byte[] plainBytes() {
        return "0001:0000:0000a5:c0ffee:deadbeef:00007f0012345000:00000000\0".getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] gidBytes() {
        return ("0000:0000:0000a5:000001:00001234:0000000000000000:"
                + "fe:80:00:00:00:00:00:00:02:11:22:ff:fe:33:44:55:"
                + "00000007:\0").getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void encodesWithoutGidExactlyAsPerftest() throws Exception {
        KeyMessage m = new KeyMessage(1, 0, 0xa5, 0xc0ffee, 0xdeadbeef, 0x7f0012345000L, 0, null);
        byte[] encoded = m.encode();
        assertEquals(59, encoded.length);
        assertArrayEquals(plainBytes(), encoded);
        assertEquals(m, KeyMessage.decode(encoded));
    }

    @Test
    void encodesWithGidExactlyAsPerftest() throws Exception {
        KeyMessage m = new KeyMessage(0, 0, 0xa5, 1, 0x1234, 0, 7, GID);
        byte[] encoded = m.encode();
        assertEquals(108, encoded.length);
        assertArrayEquals(gidBytes(), encoded);
        KeyMessage back = KeyMessage.decode(encoded);
        assertEquals(m, back);
        assertArrayEquals(GID, back.gid());
        assertTrue(back.hasGid());
    }

    @Test
    void unsignedExtremesKeepTheirWidth() throws Exception {
        KeyMessage m = new KeyMessage(0xffff, 0xffff, 0xffffff, 0xffffff, -1, -1L, -1, null);
        assertEquals("ffff:ffff:ffffff:ffffff:ffffffff:ffffffffffffffff:ffffffff\0",
                new String(m.encode(), StandardCharsets.US_ASCII));
        assertEquals(m, KeyMessage.decode(m.encode()));
    }

    @Test
    void decodeAcceptsUppercaseHexLikeSscanf() throws Exception {
        byte[] upper = "0001:0000:0000A5:C0FFEE:DEADBEEF:00007F0012345000:00000000\0"
                .getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xdeadbeef, KeyMessage.decode(upper).rkey());
    }

    @Test
    void valuesThatWouldOverflowTheFixedWidthAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KeyMessage(0, 0, 0x1000000, 0, 0, 0, 0, null));
        assertEquals("QPN 0x1000000 does not fit perftest's key message (max 0xffffff)", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KeyMessage(0, 0, 0, 0, 0, 0, 0, new byte[4]));
    }

    @Test
    void gidArrayIsCopied() {
        byte[] gid = GID.clone();
        KeyMessage m = new KeyMessage(0, 0, 1, 1, 1, 1, 0, gid);
        gid[0] = 0;
        m.gid()[1] = 0;
        assertArrayEquals(GID, m.gid());
    }

    @Test
    void wrongLengthIsRejected() {
        ProtocolException e = assertThrows(ProtocolException.class, () -> KeyMessage.decode(new byte[60]));
        assertEquals("key message has 60 bytes; perftest sends 59 (no GID) or 108 (with GID)", e.getMessage());
    }

    @Test
    void badDigitIsReportedWithFieldAndText() {
        byte[] bad = plainBytes();
        bad[12] = 'x';
        ProtocolException e = assertThrows(ProtocolException.class, () -> KeyMessage.decode(bad));
        assertEquals("invalid key message from the peer: QPN at offset 10 is not 6 hex digits; received "
                + "\"0001:0000:00x0a5:c0ffee:deadbeef:00007f0012345000:00000000\\x00\"", e.getMessage());
    }

    @Test
    void missingSeparatorAndNulAreRejected() {
        byte[] noColon = plainBytes();
        noColon[4] = '-';
        assertTrue(assertThrows(ProtocolException.class, () -> KeyMessage.decode(noColon)).getMessage()
                .contains("expected ':' at offset 4"));
        byte[] noNul = plainBytes();
        noNul[58] = '0';
        assertTrue(assertThrows(ProtocolException.class, () -> KeyMessage.decode(noNul)).getMessage()
                .contains("expected the terminating NUL at offset 58"));
    }

    @Test
    void aGidMessageReadAsPlainExplainsTheGidMismatch() {
        byte[] first59 = java.util.Arrays.copyOf(gidBytes(), 59);
        ProtocolException e = assertThrows(ProtocolException.class, () -> KeyMessage.decode(first59));
        assertTrue(e.getMessage().contains("the peer sends a GID but this side does not"), e.getMessage());
    }

    @Test
    void versionParsesLikeAtof() {
        assertEquals(6.06, PerftestVersion.parse("6.06").number());
        assertEquals(5.7, PerftestVersion.parse("5.70-beta").number());
        assertEquals(0, PerftestVersion.parse("abc").number());
        assertTrue(PerftestVersion.ADVERTISED.isSupported());
        assertFalse(PerftestVersion.ADVERTISED.atLeast(ParameterNegotiation.UNCONDITIONAL_VERSION));
        assertFalse(PerftestVersion.parse("5.69").isSupported());
        assertTrue(PerftestVersion.parse("6.29").isSupported());
    }
}
