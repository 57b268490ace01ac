package io.jperf.cm;

import io.jperf.JperfException;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** A failed RDMA CM step is a failed call under the library's one exception root (exit code 4 on the command line). */
class CmExceptionCategoryTest {
    @Test
    void aCmFailureIsAFailedCallOfTheOneRoot() {
        CmException e = CmException.of("rdma_resolve_addr", CmException.Kind.TIMEOUT, null, 0,
                new InetSocketAddress("10.0.0.1", 0), new InetSocketAddress("10.0.0.2", 18515), 3,
                Duration.ofSeconds(2), null);
        JperfException root = assertInstanceOf(JperfException.class, e);
        assertEquals(JperfException.Category.CALL_FAILED, root.category());
        assertEquals(CmException.Kind.TIMEOUT, e.kind());
    }
}
