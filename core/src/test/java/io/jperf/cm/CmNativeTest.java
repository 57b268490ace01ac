package io.jperf.cm;

import io.jperf.verbs.RdmaUnavailableException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The native edges that run on any host: a kernel without RDMA gives a clear
 * {@link RdmaUnavailableException} from {@code rdma_create_event_channel}. (The fcntl/poll calls
 * behind the channel are tested with {@code io.jperf.ffi.Libc}.)
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
}
