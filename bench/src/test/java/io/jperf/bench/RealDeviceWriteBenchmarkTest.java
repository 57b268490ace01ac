package io.jperf.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Without a device the real-device benchmark refuses to run, with the reason, instead of measuring nothing. */
class RealDeviceWriteBenchmarkTest {
    @Test
    void withoutADeviceSetupFailsWithTheReason() {
        Optional<String> why = RealDeviceWriteBenchmark.whyNoDevice();
        Assumptions.assumeTrue(why.isPresent(), "this machine has an RDMA device; the skip path is not exercised");
        RealDeviceWriteBenchmark benchmark = new RealDeviceWriteBenchmark();
        benchmark.device = "";
        benchmark.size = 64;
        IllegalStateException e = assertThrows(IllegalStateException.class, benchmark::setUp);
        assertTrue(e.getMessage().startsWith("RealDeviceWriteBenchmark skipped, nothing measured: "), e.getMessage());
        assertTrue(e.getMessage().contains(why.get()), e.getMessage());
        benchmark.tearDown();
    }
}
