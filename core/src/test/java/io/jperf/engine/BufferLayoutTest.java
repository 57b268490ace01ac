package io.jperf.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Where each QP's slices live with one region, and with --mr_per_qp's region per QP. */
class BufferLayoutTest {
    private static final long SLICE = 65536;

    @Test
    void oneRegionHoldsEveryQpsSlicesOneAfterTheOther() {
        BufferLayout one = new BufferLayout(2, SLICE, false);
        assertEquals(1, one.regions());
        assertEquals(4 * SLICE, one.regionSize());
        assertEquals(0, one.regionOf(0));
        assertEquals(0, one.regionOf(1));
        assertEquals(0, one.sendOffset(0));
        assertEquals(SLICE, one.receiveOffset(0));
        assertEquals(2 * SLICE, one.sendOffset(1));
        assertEquals(3 * SLICE, one.receiveOffset(1));
    }

    @Test
    void aRegionPerQpGivesEachQpItsOwnRegionFromOffsetZero() {
        BufferLayout perQp = new BufferLayout(2, SLICE, true);
        assertEquals(2, perQp.regions(), "-q 2 --mr_per_qp registers two regions");
        assertEquals(2 * SLICE, perQp.regionSize());
        assertEquals(0, perQp.regionOf(0));
        assertEquals(1, perQp.regionOf(1), "QP 1 uses region 1's lkey and rkey");
        assertEquals(0, perQp.sendOffset(1));
        assertEquals(SLICE, perQp.receiveOffset(1));
    }

    @Test
    void oneQpIsTheSameEitherWay() {
        BufferLayout a = new BufferLayout(1, SLICE, false);
        BufferLayout b = new BufferLayout(1, SLICE, true);
        assertEquals(a.regions(), b.regions());
        assertEquals(a.regionSize(), b.regionSize());
        assertEquals(a.receiveOffset(0), b.receiveOffset(0));
        assertThrows(IllegalArgumentException.class, () -> new BufferLayout(0, SLICE, true));
    }
}
