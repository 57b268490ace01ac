package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The channel against a scripted raw-socket peer that behaves like perftest (or misbehaves). */
class ControlChannelTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final ExecutorService peer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopPeer() throws InterruptedException {
        peer.shutdownNow();
        assertTrue(peer.awaitTermination(5, TimeUnit.SECONDS));
    }

    interface PeerScript {
        void run(InputStream in, OutputStream out) throws Exception;
    }

    /** Starts a raw server that runs {@code script} for one connection; returns its port. */
    private int rawServer(PeerScript script, Future<?>[] done) throws IOException {
        ServerSocket ss = new ServerSocket(0, 1, LOOPBACK);
        done[0] = peer.submit(() -> {
            try (ss; Socket s = ss.accept()) {
                script.run(s.getInputStream(), s.getOutputStream());
            }
            return null;
        });
        return ss.getLocalPort();
    }

    private static byte[] read(InputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        new DataInputStream(in).readFully(b);
        return b;
    }

    private static byte[] version(String v) {
        return ByteBuffer.allocate(16).put(v.getBytes(StandardCharsets.US_ASCII)).array();
    }

    @Test
    void clientExchangesEveryMessageWithAPerftestLikeServer() throws Exception {
        KeyMessage serverKeys = new KeyMessage(0, 0, 0x22, 0x333, 0x4444, 0x5555L, 0, null);
        KeyMessage clientKeys = new KeyMessage(0, 0, 0x11, 0x111, 0x1111, 0x1000L, 0, null);
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            assertArrayEquals(version("6.06 jperf"), read(in, 16));
            out.write(version("6.06"));
            assertEquals(4096, ByteBuffer.wrap(read(in, 4)).getInt());
            out.write(ByteBuffer.allocate(4).putInt(65536).array());
            assertEquals(64, ByteBuffer.wrap(read(in, 4)).getInt());
            out.write(ByteBuffer.allocate(4).putInt(128).array());
            assertArrayEquals(new byte[] {'5', 0}, read(in, 2));
            out.write(new byte[] {'3', 0});
            assertArrayEquals(clientKeys.encode(), read(in, 59));
            out.write(serverKeys.encode());
            DataInputStream din = new DataInputStream(in);
            DataOutputStream dout = new DataOutputStream(out);
            long[] ints = {65536, 5000};
            for (long v : ints) {
                assertEquals(v, din.readLong());
                dout.writeLong(v + 1);
            }
            double[] doubles = {11000.5, 10999.25, 0.176};
            for (double v : doubles) {
                assertEquals(v, din.readDouble());
                dout.writeDouble(v * 2);
            }
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            assertEquals(Role.CLIENT, c.role());
            assertEquals("6.06", c.exchangeVersion(PerftestVersion.ADVERTISED).text());
            assertEquals(new PageAndCacheLine(65536, 128), c.exchangePageAndCacheLine(4096, 64));
            assertEquals(3, c.exchangeMtu(5), "the smaller MTU wins");
            assertEquals(serverKeys, c.exchangeKeys(clientKeys));
            BwReport theirs = c.exchangeBwReport(new BwReport(65536, 5000, 11000.5, 10999.25, 0.176));
            assertEquals(new BwReport(65537, 5001, 22001, 21998.5, 0.352), theirs);
        }
        done[0].get(5, TimeUnit.SECONDS);
    }

    @Test
    void serverReadsFirstThenWrites() throws Exception {
        try (ControlChannel.ControlListener listener = ControlChannel.listen(0, LOOPBACK)) {
            Future<byte[]> client = peer.submit(() -> {
                try (Socket s = new Socket(LOOPBACK, listener.localPort())) {
                    s.getOutputStream().write(new byte[] {'4', 0});
                    return read(s.getInputStream(), 2);
                }
            });
            try (ControlChannel server = listener.accept(TIMEOUT)) {
                assertEquals(Role.SERVER, server.role());
                assertEquals(4, server.exchangeMtu(5));
            }
            assertArrayEquals(new byte[] {'5', 0}, client.get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void peerThatClosesMidMessageIsNamedWithTheStep() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 16);
            out.write(new byte[] {'6', '.'});
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            ProtocolException e = assertThrows(ProtocolException.class,
                    () -> c.exchangeVersion(PerftestVersion.ADVERTISED));
            assertEquals("peer closed the control connection during version exchange (received 2 of 16 bytes);"
                    + " see the peer's output for why it stopped", e.getMessage());
        }
    }

    @Test
    void garbageVersionIsRejected() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 16);
            out.write("GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            ProtocolException e = assertThrows(ProtocolException.class,
                    () -> c.exchangeVersion(PerftestVersion.ADVERTISED));
            assertEquals("the peer's version message is not text (byte 0xd at offset 14); is the peer perftest"
                    + " or jperf?", e.getMessage());
        }
    }

    @Test
    void oldPeerVersionIsRefused() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 16);
            out.write(version("5.60"));
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            ProtocolException e = assertThrows(ProtocolException.class,
                    () -> c.exchangeVersion(PerftestVersion.ADVERTISED));
            assertTrue(e.getMessage().startsWith("the peer reports perftest version '5.60'; versions older than"
                    + " 5.70"), e.getMessage());
        }
    }

    @Test
    void garbageKeyMessageIsRejected() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 59);
            out.write(new byte[59]);
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            ProtocolException e = assertThrows(ProtocolException.class,
                    () -> c.exchangeKeys(new KeyMessage(0, 0, 1, 1, 1, 1, 0, null)));
            assertTrue(e.getMessage().startsWith("invalid key message from the peer: LID at offset 0 is not 4 hex"
                    + " digits"), e.getMessage());
        }
    }

    @Test
    void invalidMtuDigitIsRejected() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 2);
            out.write(new byte[] {'9', 0});
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            ProtocolException e = assertThrows(ProtocolException.class, () -> c.exchangeMtu(5));
            assertEquals("the peer's MTU message is 0x39 0x00; expected a digit 1..5 (256..4096 bytes) and a NUL",
                    e.getMessage());
        }
    }

    @Test
    void silentPeerTimesOut() throws Exception {
        Future<?>[] done = new Future<?>[1];
        int port = rawServer((in, out) -> {
            read(in, 59);
            Thread.sleep(5000);
        }, done);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, null, TIMEOUT)) {
            c.setReadTimeout(Duration.ofMillis(200));
            ProtocolException e = assertThrows(ProtocolException.class,
                    () -> c.barrier(new KeyMessage(0, 0, 1, 1, 1, 1, 0, null)));
            assertEquals("timed out after 0.200 s waiting for the peer during barrier (59-byte key message; check"
                    + " both sides agree on -x/--gid-index) (received 0 of 59 bytes)", e.getMessage());
        }
    }

    @Test
    void connectRetriesUntilTheServerListens() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        Future<ControlChannel> late = peer.submit(() -> {
            Thread.sleep(400);
            return ControlChannel.accept(port, LOOPBACK, TIMEOUT);
        });
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, LOOPBACK, TIMEOUT);
             ControlChannel s = late.get(5, TimeUnit.SECONDS)) {
            assertEquals(Role.CLIENT, c.role());
            assertEquals(Role.SERVER, s.role());
        }
    }

    @Test
    void connectGivesUpAtTheDeadline() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> ControlChannel.connect("127.0.0.1", port, null, Duration.ofMillis(300)));
        assertTrue(e.getMessage().startsWith("could not connect to 127.0.0.1:" + port + " within 0.300 s"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("is the server side running and is TCP port " + port + " reachable?"));
    }

    @Test
    void acceptTimesOutWithoutClient() throws Exception {
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> ControlChannel.accept(0, LOOPBACK, Duration.ofMillis(100)));
        assertTrue(e.getMessage().startsWith("no client connected to TCP port "), e.getMessage());
    }
}
