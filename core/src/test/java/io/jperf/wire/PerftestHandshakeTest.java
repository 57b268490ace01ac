package io.jperf.wire;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Two jperf sides over loopback, each in its own thread, running the whole perftest sequence. */
class PerftestHandshakeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final byte[] GID = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 0, 0, 1};

    private final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(5, TimeUnit.SECONDS));
    }

    private static KeyMessage key(int qpn) {
        return new KeyMessage(0, 0, qpn, qpn + 0x100, 0x1000 + qpn, 0x7f0000000000L + qpn, 0, GID);
    }

    /** What one side learned from the other. */
    record Outcome(PerftestHandshake.Preamble preamble, List<KeyMessage> keys, List<KeyMessage> confirmed,
                   BwReport duringRun, BwReport atFinish) {
    }

    interface Side {
        Outcome run(PerftestHandshake h) throws Exception;
    }

    private Outcome[] runBoth(TestOptions.Builder serverOpts, TestOptions.Builder clientOpts, Side serverSide,
                              Side clientSide) throws Exception {
        try (ControlChannel.ControlListener listener = ControlChannel.listen(0, LOOPBACK)) {
            TestOptions server = serverOpts.build();
            TestOptions client = clientOpts.serverHost("127.0.0.1").port(listener.localPort()).build();
            Future<Outcome> s = pool.submit(() -> {
                try (PerftestHandshake h = new PerftestHandshake(listener.accept(TIMEOUT), server.params(), Duration.ZERO)) {
                    return serverSide.run(h);
                }
            });
            Future<Outcome> c = pool.submit(() -> {
                ControlChannel ch = ControlChannel.connect("127.0.0.1", listener.localPort(), null, TIMEOUT);
                try (PerftestHandshake h = new PerftestHandshake(ch, client.params(), Duration.ZERO)) {
                    return clientSide.run(h);
                }
            });
            return new Outcome[] {s.get(10, TimeUnit.SECONDS), c.get(10, TimeUnit.SECONDS)};
        }
    }

    @Test
    void unidirectionalBandwidthRunsTheFullSequence() throws Exception {
        List<KeyMessage> serverKeys = List.of(key(0x10), key(0x11));
        List<KeyMessage> clientKeys = List.of(key(0x20), key(0x21));
        BwReport clientReport = new BwReport(65536, 10000, 11000.5, 10990.25, 0.1758);
        Outcome[] o = runBoth(TestOptions.builder(TestKind.WRITE_BW).numQps(2),
                TestOptions.builder(TestKind.WRITE_BW).numQps(2),
                h -> {
                    var p = h.preamble(4096, 64, 5);
                    var k = h.exchangeQpKeys(serverKeys);
                    var c = h.confirmQpKeys(serverKeys);
                    h.barrier();
                    return new Outcome(p, k, c, null, h.finish(null, TIMEOUT));
                },
                h -> {
                    var p = h.preamble(16384, 128, 4);
                    var k = h.exchangeQpKeys(clientKeys);
                    var c = h.confirmQpKeys(clientKeys);
                    h.barrier();
                    h.beforeMeasurement();
                    BwReport during = h.afterMeasurement(clientReport);
                    return new Outcome(p, k, c, during, h.finish(clientReport, TIMEOUT));
                });
        Outcome server = o[0];
        Outcome client = o[1];
        for (Outcome side : o) {
            assertEquals("6.06 jperf", side.preamble().remoteVersion().text());
            assertEquals(new PageAndCacheLine(16384, 128), side.preamble().pageAndCacheLine());
            assertEquals(4, side.preamble().ibvMtu());
        }
        assertEquals(clientKeys, server.keys());
        assertEquals(clientKeys, server.confirmed());
        assertEquals(serverKeys, client.keys());
        assertEquals(clientReport, server.atFinish(), "the server learns the client's result");
        assertEquals(new BwReport(0, 0, 0, 0, 0), client.atFinish());
        assertNull(client.duringRun(), "no report per size in unidirectional tests");
    }

    /**
     * Unidirectional -a between two jperf ends that both agreed to share every report: after perftest's
     * report of the last size the client sends every size's, and the server hears them all in order; without
     * the agreement (a perftest peer) the server has the last one only, and the exchange stays perftest's.
     */
    @ParameterizedTest(name = "shared={0}")
    @ValueSource(booleans = {true, false})
    void aJperfClientOfAllSizesReportsEverySizeToTheServer(boolean shared) throws Exception {
        List<BwReport> every = new ArrayList<>();
        for (long size = 2; size <= 1024; size *= 2) {
            every.add(new BwReport(size, 5000, size * 1.5, size + 0.1, 0.123456789 * size));
        }
        List<List<BwReport>> heard = new ArrayList<>(List.of(List.of(), List.of()));
        Side side = h -> {
            boolean server = h.channel().role() == Role.SERVER;
            if (shared) {
                h.shareEveryReport();
            }
            var p = h.preamble(4096, 64, 5);
            var k = h.exchangeQpKeys(List.of(key(server ? 1 : 2)));
            h.confirmQpKeys(List.of(key(server ? 1 : 2)));
            h.barrier();
            if (!server) {
                for (BwReport r : every) {
                    h.beforeMeasurement();
                    assertNull(h.afterMeasurement(r));
                }
            }
            BwReport last = h.finishWithEvery(server ? List.of() : every, TIMEOUT);
            heard.set(server ? 0 : 1, h.peerReports());
            return new Outcome(p, k, null, null, last);
        };
        Outcome[] o = runBoth(TestOptions.builder(TestKind.WRITE_BW).allSizes(true),
                TestOptions.builder(TestKind.WRITE_BW).allSizes(true), side, side);
        assertEquals(every.getLast(), o[0].atFinish(), "perftest's exchange carries the last size");
        assertEquals(shared ? every : List.of(every.getLast()), heard.get(0));
        assertEquals(List.of(new BwReport(0, 0, 0, 0, 0)), heard.get(1), "the server has no report of its own");
    }

    @Test
    void malformedReportsFromThePeerAreRefusedByName() {
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> EveryReport.decode(java.util.Map.of("report.0", "2,5000,1.0,NaN,0.5")));
        assertTrue(e.getMessage().contains("report.0") && e.getMessage().contains("malformed"), e.getMessage());
        assertThrows(ProtocolException.class, () -> EveryReport.decode(java.util.Map.of("report.1", "2,5000,1,1,1")));
        assertThrows(ProtocolException.class, () -> EveryReport.decode(java.util.Map.of("report.0", "2,5000,1,1")));
        assertThrows(ProtocolException.class, () -> EveryReport.decode(java.util.Map.of("report.0", "-2,5000,1,1,1")));
        assertEquals(List.of(new BwReport(2, 5000, 1, 1, 1)),
                assertDoesNotThrow(() -> EveryReport.decode(EveryReport.encode(List.of(new BwReport(2, 5000, 1, 1, 1))))));
    }

    @Test
    void bidirectionalAllSizesSyncsAroundEveryRunAndSwapsReports() throws Exception {
        List<KeyMessage> serverKeys = List.of(key(1));
        List<KeyMessage> clientKeys = List.of(key(2));
        Side side = h -> {
            boolean server = h.channel().role() == Role.SERVER;
            List<KeyMessage> mine = server ? serverKeys : clientKeys;
            var p = h.preamble(4096, 64, 5);
            var k = h.exchangeQpKeys(mine);
            h.confirmQpKeys(mine);
            h.barrier();
            BwReport last = null;
            for (long size = 2; size <= 8; size *= 2) {
                h.beforeMeasurement();
                last = h.afterMeasurement(new BwReport(size, 5000, server ? 1 : 2, server ? 10 : 20, size));
                assertEquals(size, last.size());
            }
            return new Outcome(p, k, null, last, h.finish(null, TIMEOUT));
        };
        Outcome[] o = runBoth(TestOptions.builder(TestKind.WRITE_BW).bidirectional(true).allSizes(true),
                TestOptions.builder(TestKind.WRITE_BW).bidirectional(true).allSizes(true), side, side);
        assertEquals(new BwReport(8, 5000, 2, 20, 8), o[0].duringRun());
        assertEquals(new BwReport(8, 5000, 1, 10, 8), o[1].duringRun());
        assertNull(o[0].atFinish(), "bidirectional tests exchange no end-of-test report");
    }

    @Test
    void latencySendsQp0TwiceAndHasNoReportOrClose() throws Exception {
        List<KeyMessage> serverKeys = List.of(key(5));
        List<KeyMessage> clientKeys = List.of(key(6));
        Side side = h -> {
            List<KeyMessage> mine = h.channel().role() == Role.SERVER ? serverKeys : clientKeys;
            var p = h.preamble(4096, 64, 3);
            var k = h.exchangeQpKeys(mine);
            var c = h.confirmQpKeys(mine);
            h.barrier();
            h.beforeMeasurement();
            assertNull(h.afterMeasurement(new BwReport(2, 1000, 0, 0, 0)));
            return new Outcome(p, k, c, null, h.finish(null, TIMEOUT));
        };
        Outcome[] o = runBoth(TestOptions.builder(TestKind.WRITE_LAT), TestOptions.builder(TestKind.WRITE_LAT),
                side, side);
        assertEquals(clientKeys, o[0].keys());
        assertEquals(serverKeys, o[1].confirmed());
        assertEquals(3, o[0].preamble().ibvMtu());
    }

    /**
     * ib_atomic_lat, as ib_read_lat: QP0's keys go twice, and the server, which measures nothing, waits in the
     * closing exchange until the client's requests are done.
     */
    @Test
    void atomicLatencyServerWaitsInTheClosingExchangeForTheClient() throws Exception {
        List<KeyMessage> serverKeys = List.of(key(7));
        List<KeyMessage> clientKeys = List.of(key(8));
        long[] serverFinishNanos = new long[1];
        Side side = h -> {
            boolean server = h.channel().role() == Role.SERVER;
            List<KeyMessage> mine = server ? serverKeys : clientKeys;
            var p = h.preamble(4096, 64, 3);
            var k = h.exchangeQpKeys(mine);
            var c = h.confirmQpKeys(mine);
            h.barrier();
            long t0 = System.nanoTime();
            if (!server) {
                Thread.sleep(400); // the client's atomics
            }
            h.finish(null, TIMEOUT);
            if (server) {
                serverFinishNanos[0] = System.nanoTime() - t0;
            }
            return new Outcome(p, k, c, null, null);
        };
        Outcome[] o = runBoth(TestOptions.builder(TestKind.ATOMIC_LAT), TestOptions.builder(TestKind.ATOMIC_LAT),
                side, side);
        assertEquals(clientKeys, o[0].keys());
        assertEquals(serverKeys, o[1].confirmed());
        assertTrue(serverFinishNanos[0] >= TimeUnit.MILLISECONDS.toNanos(300),
                "the server waited for the client: " + serverFinishNanos[0] + " ns");
    }

    /** The bytes a latency client puts on the wire, as perftest 6.06's ib_write_lat server would read them. */
    @Test
    void latencyClientWireBytesMatchPerftestsSequence() throws Exception {
        KeyMessage mine = new KeyMessage(0, 0, 0x12, 0x34, 0x56, 0x78, 0, null);
        try (ServerSocket ss = new ServerSocket(0, 1, LOOPBACK)) {
            Future<byte[]> recorded = pool.submit(() -> {
                try (Socket s = ss.accept()) {
                    InputStream in = s.getInputStream();
                    ByteArrayOutputStream seen = new ByteArrayOutputStream();
                    int[] sizes = {16, 4, 4, 2, 59, 59, 59, 59};
                    byte[][] replies = {pad("6.06"), {0, 0, 16, 0}, {0, 0, 0, 64}, {'5', 0}};
                    for (int i = 0; i < sizes.length; i++) {
                        byte[] b = in.readNBytes(sizes[i]);
                        seen.write(b);
                        s.getOutputStream().write(i < replies.length ? replies[i] : mine.encode());
                    }
                    assertEquals(-1, in.read(), "latency closes without a closing handshake");
                    return seen.toByteArray();
                }
            });
            TestOptions client = TestOptions.builder(TestKind.WRITE_LAT).serverHost("127.0.0.1")
                    .port(ss.getLocalPort()).build();
            PerftestHandshake h = new PerftestHandshake(
                    ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, TIMEOUT), client.params());
            h.preamble(4096, 64, 5);
            h.exchangeQpKeys(List.of(mine));
            h.confirmQpKeys(List.of(mine));
            h.barrier();
            h.finish(null, TIMEOUT);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(pad("6.06 jperf"));
            expected.write(new byte[] {0, 0, 16, 0, 0, 0, 0, 64, '5', 0});
            for (int i = 0; i < 4; i++) {
                expected.write(mine.encode());
            }
            assertEquals(new String(expected.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1),
                    new String(recorded.get(5, TimeUnit.SECONDS), java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void sendBandwidthSyncsAroundEverySizeAndExchangesNoReports() throws Exception {
        List<KeyMessage> serverKeys = List.of(key(0x30));
        List<KeyMessage> clientKeys = List.of(key(0x40));
        int[] sizes = new int[1];
        Side side = h -> {
            boolean server = h.channel().role() == Role.SERVER;
            List<KeyMessage> mine = server ? serverKeys : clientKeys;
            var p = h.preamble(4096, 64, 5);
            var k = h.exchangeQpKeys(mine);
            var c = h.confirmQpKeys(mine);
            h.barrier();
            for (long size = 2; size <= 8; size *= 2) {
                h.beforeMeasurement();
                assertNull(h.afterMeasurement(new BwReport(size, 1000, 0, server ? 1 : 2, 0)), "each end reports its own");
                if (server) {
                    sizes[0]++;
                }
            }
            return new Outcome(p, k, c, null, h.finish(server ? null : new BwReport(8, 1000, 0, 2, 0), TIMEOUT));
        };
        Outcome[] o = runBoth(TestOptions.builder(TestKind.SEND_BW).allSizes(true).iterations(1000),
                TestOptions.builder(TestKind.SEND_BW).allSizes(true).iterations(1000), side, side);
        assertEquals(clientKeys, o[0].keys());
        assertEquals(serverKeys, o[1].confirmed());
        assertNull(o[0].atFinish(), "no end-of-test report exchange: the ib_send_bw server measured on its own");
        assertNull(o[1].atFinish());
        assertEquals(3, sizes[0]);
    }

    /**
     * The bytes a send-lat client puts on the wire, in ib_send_lat's order: no extra QP0 message before the
     * keys, a sync after the receives are posted, the closing exchange and "done".
     */
    @Test
    void sendLatencyClientWireBytesMatchPerftestsSequence() throws Exception {
        KeyMessage mine = new KeyMessage(0, 0, 0x12, 0x34, 0x56, 0x78, 0, null);
        try (ServerSocket ss = new ServerSocket(0, 1, LOOPBACK)) {
            Future<byte[]> recorded = pool.submit(() -> {
                try (Socket s = ss.accept()) {
                    InputStream in = s.getInputStream();
                    ByteArrayOutputStream seen = new ByteArrayOutputStream();
                    int[] sizes = {16, 4, 4, 2, 59, 59, 59, 59, 59, 5};
                    byte[][] replies = {pad("6.06"), {0, 0, 16, 0}, {0, 0, 0, 64}, {'5', 0}};
                    for (int i = 0; i < sizes.length; i++) {
                        byte[] b = in.readNBytes(sizes[i]);
                        seen.write(b);
                        if (sizes[i] != 5) {
                            s.getOutputStream().write(i < replies.length ? replies[i] : mine.encode());
                        }
                    }
                    assertEquals(-1, in.read(), "nothing after the closing exchange");
                    return seen.toByteArray();
                }
            });
            TestOptions client = TestOptions.builder(TestKind.SEND_LAT).serverHost("127.0.0.1")
                    .port(ss.getLocalPort()).build();
            PerftestHandshake h = new PerftestHandshake(
                    ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, TIMEOUT), client.params());
            h.preamble(4096, 64, 5);
            h.exchangeQpKeys(List.of(mine));
            h.confirmQpKeys(List.of(mine));
            h.barrier();
            h.beforeMeasurement();
            assertNull(h.afterMeasurement(null));
            h.finish(null, TIMEOUT);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            expected.write(pad("6.06 jperf"));
            expected.write(new byte[] {0, 0, 16, 0, 0, 0, 0, 64, '5', 0});
            for (int i = 0; i < 5; i++) {
                expected.write(mine.encode());
            }
            expected.write("done\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(new String(expected.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1),
                    new String(recorded.get(5, TimeUnit.SECONDS), java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    private static byte[] pad(String v) {
        return java.nio.ByteBuffer.allocate(16).put(v.getBytes(java.nio.charset.StandardCharsets.US_ASCII)).array();
    }

    @Test
    void peerDisconnectingMidSequenceIsReported() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, LOOPBACK)) {
            pool.submit(() -> {
                try (Socket s = ss.accept()) {
                    s.getInputStream().readNBytes(16);
                    s.getOutputStream().write(pad("6.06"));
                }
                return null;
            });
            TestOptions client = TestOptions.builder(TestKind.WRITE_BW).serverHost("127.0.0.1")
                    .port(ss.getLocalPort()).build();
            try (PerftestHandshake h = new PerftestHandshake(
                    ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, TIMEOUT), client.params(), Duration.ZERO)) {
                ProtocolException e = assertThrows(ProtocolException.class, () -> h.preamble(4096, 64, 5));
                assertTrue(e.getMessage().startsWith("peer closed the control connection during page size exchange"),
                        e.getMessage());
            }
        }
    }

    @Test
    void stepsOutOfOrderAreRefused() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, LOOPBACK)) {
            pool.submit(() -> {
                ss.accept().close();
                return null;
            });
            TestOptions client = TestOptions.builder(TestKind.WRITE_BW).serverHost("127.0.0.1")
                    .port(ss.getLocalPort()).build();
            try (PerftestHandshake h = new PerftestHandshake(
                    ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, TIMEOUT), client.params())) {
                IllegalStateException e = assertThrows(IllegalStateException.class, h::barrier);
                assertEquals("handshake step out of order: at NEW, expected CONFIRMED", e.getMessage());
            }
        }
    }
}
