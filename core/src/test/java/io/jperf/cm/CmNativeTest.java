package io.jperf.cm;

import io.jperf.verbs.RdmaUnavailableException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native edges that run on any host: a kernel without RDMA gives a clear
 * {@link RdmaUnavailableException} from {@code rdma_create_event_channel}; fcntl/poll bindings.
 */
class CmNativeTest {

    @Test
    void withoutKernelRdmaTheEventChannelFailsWithAClearMessage() {
        Assumptions.assumeFalse(Files.exists(Path.of("/sys/class/infiniband")),
                "this kernel has RDMA (/sys/class/infiniband exists): the no-RDMA path cannot be seen here");
        RdmaUnavailableException e = assertThrows(RdmaUnavailableException.class, CmEventChannel::create);
        String m = e.getMessage();
        assertTrue(m.startsWith("rdma_create_event_channel failed: errno "), m);
        assertTrue(m.contains("ENODEV") || m.contains("ENOSYS") || m.contains("ENOENT"), m);
        assertTrue(m.contains("this kernel has no RDMA support (/sys/class/infiniband does not exist)"), m);
        assertTrue(m.contains("RDMA CM (-R) needs that too"), m);
        assertTrue(m.contains("lab/rdma-lab"), "points at the lab: " + m);
    }

    @Test
    void clientAndServerFailTheSameWayBeforeTouchingTheNetwork() {
        Assumptions.assumeFalse(Files.exists(Path.of("/sys/class/infiniband")),
                "this kernel has RDMA (/sys/class/infiniband exists)");
        assertThrows(RdmaUnavailableException.class, () -> CmServer.listen(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 18515), 1));
        assertThrows(RdmaUnavailableException.class, () -> CmClient.connect(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 18515), null, null, 1,
                endpoint -> {
                    throw new AssertionError("never called");
                }, Duration.ofSeconds(1)));
    }

    @Test
    void theHintTellsNoKernelRdmaFromMissingRdmaUcm(@TempDir Path root) throws IOException {
        assertTrue(CmEventChannel.noCmHint(root).contains("RDMA CM (-R) needs that too"));
        Files.createDirectories(root.resolve("sys/class/infiniband/rxe0"));
        assertTrue(CmEventChannel.noCmHint(root).contains("load the rdma_ucm module (`modprobe rdma_ucm`)"),
                CmEventChannel.noCmHint(root));
    }

    @Test
    void pollWaitsForItsTimeoutAndNoLonger() throws Exception {
        long t0 = System.nanoTime();
        assertEquals(0, Fds.pollIn(-1, 150), "a negative fd is ignored by poll: plain timeout");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 140 && ms < 2_000, "waited " + ms + " ms");
    }

    @Test
    void pollAndFcntlReportABadFd() {
        int closedFd = 1_000_000; // beyond any open descriptor
        assertEquals(Fds.POLLNVAL, assertDoesNotThrowInt(() -> Fds.pollIn(closedFd, 1000)) & Fds.POLLNVAL);
        Fds.FdException e = assertThrows(Fds.FdException.class, () -> Fds.setNonBlocking(closedFd));
        assertEquals(9, e.errno, "EBADF");
    }

    private interface IntCall {
        int call() throws Exception;
    }

    private static int assertDoesNotThrowInt(IntCall c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
