package io.jperf.wire;

import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole-exchange deadline: a peer that trickles bytes within each read timeout still runs out of time. */
class ControlChannelDeadlineTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(1);

    @Test
    void aTricklingPeerFailsAtTheDeadlineNotAfterEveryByte() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = ss.accept()) {
                    OutputStream out = s.getOutputStream();
                    for (int i = 0; i < 16; i++) {
                        out.write('6');
                        out.flush();
                        Thread.sleep(READ_TIMEOUT.toMillis() / 2);
                    }
                } catch (Exception e) {
                    // the client gave up: expected
                }
            });
            try (ControlChannel ch = ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, READ_TIMEOUT)) {
                long t0 = System.nanoTime();
                ch.deadline(t0 + Duration.ofMillis(1500).toNanos());
                ProtocolException e = assertThrows(ProtocolException.class,
                        () -> ch.exchangeVersion(PerftestVersion.ADVERTISED));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.getMessage().contains("deadline passed during version exchange"), e.getMessage());
                assertTrue(ms >= 1400 && ms < 2500, "gave up after " + ms + " ms");
            }
            peer.interrupt();
        }
    }

    @Test
    void aDeadlineInThePastFailsTheNextReadAtOnce() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ControlChannel ch = ControlChannel.connect("127.0.0.1", ss.getLocalPort(), null, READ_TIMEOUT)) {
            ch.deadline(System.nanoTime() - 1);
            long t0 = System.nanoTime();
            ProtocolException e = assertThrows(ProtocolException.class, () -> ch.exchangeVersion(PerftestVersion.ADVERTISED));
            assertTrue(e.getMessage().contains("deadline"), e.getMessage());
            assertTrue((System.nanoTime() - t0) / 1_000_000 < 500);
        }
    }
}
