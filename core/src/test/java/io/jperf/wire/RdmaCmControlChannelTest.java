package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The control channel over a message-based transport, as perftest's {@code -R} control QP carries it:
 * the peer's version picks the key layout and the largest message, jperf's own long messages are
 * split, and perftest 6.28's negotiation is answered.
 */
class RdmaCmControlChannelTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final KeyMessage KEY = new KeyMessage(0, 1, 0x11, 0x22, 0x33, 0x44L, 0,
            HexFormat.of().parseHex("00000000000000000000ffff0a140001"));

    private static byte[] version(String text) {
        return ByteBuffer.allocate(16).put(text.getBytes(StandardCharsets.US_ASCII)).array();
    }

    @Test
    void aPerftest629PeerGets64ByteKeysAndMessagesUpTo320Bytes() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel client = ControlChannel.over(pipe.a, Role.CLIENT, TIMEOUT);
        pipe.a.deliver(version("6.29"));
        assertEquals("6.29", client.exchangeVersion(PerftestVersion.ADVERTISED).text());
        assertEquals(List.of(16), pipe.a.sent, "the version is one 16-byte SEND");
        assertEquals(KeyFormat.DEST_64, client.keyFormat());
        assertEquals(320, pipe.a.limit);

        pipe.a.deliver(KeyFormat.DEST_64.encode(KEY, 1));
        client.keyGidIndex(1);
        assertEquals(KEY, client.exchangeKeys(KEY));
        assertEquals(64, (int) pipe.a.sent.getLast());
        byte[] ours = pipe.b.read(16 + 64, "test");
        assertEquals(1, ByteBuffer.wrap(ours).getInt(16 + 60), "our gid_index");
    }

    @Test
    void aPerftest606PeerGets56ByteKeysAndNothingLonger() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel server = ControlChannel.over(pipe.b, Role.SERVER, TIMEOUT);
        pipe.b.deliver(version("6.06"));
        server.exchangeVersion(PerftestVersion.ADVERTISED);
        assertEquals(KeyFormat.DEST_56, server.keyFormat());
        assertEquals(56, pipe.b.limit);
        pipe.b.deliver(new byte[56]);
        server.sync("sync");
        assertEquals(List.of(16, 56), pipe.b.sent);
        pipe.a.read(16, "version");
        assertArrayEquals(new byte[56], pipe.a.read(56, "sync"), "the sync is a zeroed pingpong_dest");
    }

    @Test
    void aPeerSendingTheOtherLayoutIsNamed() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel client = ControlChannel.over(pipe.a, Role.CLIENT, TIMEOUT);
        pipe.a.deliver(version("6.06"));
        client.exchangeVersion(PerftestVersion.ADVERTISED);
        pipe.a.deliver(KeyFormat.DEST_64.encode(KEY, 0));
        ProtocolException e = assertThrows(ProtocolException.class, () -> client.exchangeKeys(KEY));
        assertTrue(e.getMessage().contains("64-byte message"), e.getMessage());
    }

    @Test
    void twoJperfEndsSplitLongMessagesAtTheirReceiveSize() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel client = ControlChannel.over(pipe.a, Role.CLIENT, TIMEOUT);
        ControlChannel server = ControlChannel.over(pipe.b, Role.SERVER, TIMEOUT);
        byte[] big = new byte[10_000];
        big[9_999] = 7;
        CompletableFuture<byte[]> served = CompletableFuture.supplyAsync(() -> {
            try {
                server.exchangeVersion(PerftestVersion.ADVERTISED);
                return server.exchangeVariable(new byte[] {1, 2, 3}, 65536, "extension");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        client.exchangeVersion(PerftestVersion.ADVERTISED);
        assertArrayEquals(new byte[] {1, 2, 3}, client.exchangeVariable(big, 65536, "extension"));
        assertArrayEquals(big, served.get(5, TimeUnit.SECONDS));
        assertEquals(List.of(16, 4, 4096, 4096, 1808), pipe.a.sent, "length, then pieces of a jperf receive");
        assertEquals(ControlChannel.JPERF_CM_RECEIVE, pipe.a.limit);
    }

    @Test
    void theClosingHandshakeOverRdmaCmSendsNoDone() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel client = ControlChannel.over(pipe.a, Role.CLIENT, TIMEOUT);
        pipe.a.deliver(version("6.29"));
        client.exchangeVersion(PerftestVersion.ADVERTISED);
        pipe.a.deliver(KeyFormat.DEST_64.encode(KEY, 0));
        client.closeHandshake(KEY);
        assertEquals(List.of(16, 64), pipe.a.sent);
    }

    @Test
    void perftest628sNegotiationIsAnsweredOverRdmaCm() throws Exception {
        MessagePipe pipe = new MessagePipe();
        ControlChannel server = ControlChannel.over(pipe.b, Role.SERVER, TIMEOUT);
        pipe.b.deliver(version("6.28"));
        server.exchangeVersion(PerftestVersion.ADVERTISED);
        assertEquals(KeyFormat.DEST_56, server.keyFormat(), "6.28 still has the 56-byte pingpong_dest");
        ParameterNegotiation theirs = new ParameterNegotiation(0, 0, 2, 0, 0, 0, 1, 2, 1000, 1, 5, true, 16);
        pipe.b.deliver(theirs.encode());
        ParameterNegotiation ours = new ParameterNegotiation(0, 0, 2, 0, 0, 0, 1, 2, 1000, 1, 5, true, 30);
        assertEquals(theirs, server.exchangeNegotiation(ours));
        assertEquals(List.of(16, 320), pipe.b.sent, "6.28 posts a 320-byte receive");
    }

    @Test
    void aPerftest628BuiltWithoutMlx5dvIsNamedOverTcp() throws Exception {
        try (ControlChannel.ControlListener listener = ControlChannel.listen(0, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> client = CompletableFuture.runAsync(() -> {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.localPort())) {
                    OutputStream out = s.getOutputStream();
                    out.write(version("6.28"));
                    s.getInputStream().readNBytes(16);
                    out.write(new byte[ParameterNegotiation.SIZE_WITHOUT_MLX5DV]);
                    s.getInputStream().readNBytes(1);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            ControlChannel server = listener.accept(TIMEOUT);
            server.exchangeVersion(PerftestVersion.ADVERTISED);
            long t0 = System.nanoTime();
            ProtocolException e = assertThrows(ProtocolException.class, () -> server.exchangeNegotiation(
                    new ParameterNegotiation(0, 0, 2, 0, 0, 0, 1, 2, 1000, 1, 5, false, 16)));
            assertTrue(e.getMessage().contains("built without mlx5dv"), e.getMessage());
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4), "named within a few seconds");
            server.close();
            client.get(5, TimeUnit.SECONDS);
        }
    }
}
