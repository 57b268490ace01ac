package io.jperf.matrix;

import io.jperf.engine.AuthSecret;
import io.jperf.result.BandwidthResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The production runner where no RDMA is needed: unit conversion, and a failure that is an outcome, not a throw. */
class PerfTestRunnerTest {

    @Test
    void bandwidthInEitherUnitBecomesGbps() {
        assertEquals(8.388608, PerfTestRunner.gbps(new BandwidthResult(65536, 1000, 1000, 1000, 0.01,
                BandwidthResult.Unit.MIB_PER_SEC)), 1e-9);
        assertEquals(93.5, PerfTestRunner.gbps(new BandwidthResult(65536, 1000, 95, 93.5, 0.18,
                BandwidthResult.Unit.GBIT_PER_SEC)), 1e-9);
    }

    @Test
    void aTestThatCannotRunIsAFailedOutcome() {
        PairOutcome o = new PerfTestRunner(AuthSecret.of("a-shared-secret-for-the-test", "test"), 1).run(
                new PairRequest(true, 65536, 1, 0, Duration.ZERO, Duration.ofSeconds(1), 0, 1, 0, "127.0.0.1", 1),
                new Rail("no-such-device-xyz", Optional.empty()));
        assertFalse(o.value().isPresent());
        assertTrue(o.error().orElseThrow().length() > 10, o.error().orElseThrow());
    }
}
