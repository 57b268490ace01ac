package io.jperf.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ProtocolException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How a TCP client meets its server: it keeps trying while nothing listens, looking at RDMA CM in
 * between, which on a host without RDMA must not get in the way.
 */
class RendezvousTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private static TestOptions client(int port) {
        return TestOptions.builder(TestKind.WRITE_BW).serverHost(LOOPBACK.getHostAddress()).port(port).build();
    }

    @Test
    void aTcpClientWaitsForAServerThatStartsLate() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        int p = port;
        CompletableFuture<Void> late = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(2500);
                try (ServerSocket server = new ServerSocket(p, 1, LOOPBACK); Socket s = server.accept()) {
                    s.getInputStream().read();
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        try (ControlChannel channel = Rendezvous.connect(client(port), null, Duration.ofSeconds(10))) {
            assertEquals(LOOPBACK, channel.remoteAddress());
            assertNull(channel.remoteVersion(), "the TCP path leaves the version exchange to the session");
        }
        late.get(10, TimeUnit.SECONDS);
    }

    @Test
    void nobodyListeningEndsAtTheTimeoutNamingBothTransports() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        long t0 = System.nanoTime();
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> Rendezvous.connect(client(port), null, Duration.ofSeconds(3)));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(e.getMessage().contains("tried TCP, then RDMA CM"), e.getMessage());
        assertTrue(seconds >= 2.5 && seconds < 8, "bounded by the timeout: " + seconds);
    }
}
