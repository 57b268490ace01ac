package io.jperf.lab;

import io.jperf.cm.CmPath;
import io.jperf.engine.PerfTest;
import io.jperf.engine.PerfTestResult;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** write-bw and write-lat with -R: the test QPs connected by RDMA CM, rxe1 (client) to rxe0 (server). */
@Tag("lab")
class LabRdmaCmWriteTest {
    private static PerfTestResult loopback(TestOptions options) {
        return PerfTest.of(options).timeout(Duration.ofSeconds(60)).settleDelay(Duration.ZERO).runLoopback("rxe0");
    }

    private static TestOptions.Builder options(TestKind kind) {
        return TestOptions.builder(kind).device("rxe1").iterations(200).rdmaCm(true).loopback(true);
    }

    @Test
    void bandwidthOverRdmaCmUsesTheDeviceTheSourceAddressIsOn() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).build());
        assertTrue(r.bandwidth().getFirst().average() > 0);
        List<CmPath> cm = r.rdmaCm();
        assertEquals(1, cm.size());
        assertEquals("rxe1", cm.getFirst().device(), "the CM id is bound to rxe1's address, so it resolves via rxe1");
        assertEquals("rxe1", r.header().device());
        assertTrue(r.header().rdmaCm());
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
    }

    @Test
    void twoConnectionsForTwoQps() {
        PerfTestResult r = loopback(options(TestKind.WRITE_BW).numQps(2).build());
        assertEquals(2, r.rdmaCm().size());
        assertEquals(400, r.bandwidth().getFirst().iterations());
    }

    @Test
    void latencyOverRdmaCm() {
        PerfTestResult r = loopback(options(TestKind.WRITE_LAT).build());
        assertEquals(200, r.latency().getFirst().iterations());
        assertTrue(r.latency().getFirst().typicalUs() > 0);
        assertTrue(r.toJson().contains("\"rdma_cm\""), "the JSON says what RDMA CM resolved");
    }
}
