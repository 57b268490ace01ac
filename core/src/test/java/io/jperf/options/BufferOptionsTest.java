package io.jperf.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** --use_hugepages and --mr_per_qp as TestOptions takes them. */
class BufferOptionsTest {
    @Test
    void theDefaultIsOrdinaryPagesInOneRegion() {
        assertEquals(BufferOptions.DEFAULT, TestOptions.builder(TestKind.WRITE_BW).build().params().buffers());
    }

    @Test
    void bothFlagsReachTheOptionsAndSurviveToBuilder() {
        TestOptions o = TestOptions.builder(TestKind.READ_BW).numQps(2).hugePages(true).mrPerQp(true).build();
        assertEquals(new BufferOptions(true, true), o.params().buffers());
        assertEquals(o.params().buffers(), o.toBuilder().build().params().buffers());
        assertEquals(new BufferOptions(true, false), TestOptions.builder(TestKind.WRITE_LAT).hugePages(true).build()
                .params().buffers());
    }

    @Test
    void aRegionPerQpIsForBandwidthTestsAsPerftest() {
        OptionsException e = assertThrows(OptionsException.class,
                () -> TestOptions.builder(TestKind.WRITE_LAT).mrPerQp(true).build());
        assertEquals("--mr_per_qp: bandwidth tests only, as perftest (not ib_write_lat)", e.getMessage());
    }
}
