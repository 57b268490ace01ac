package io.jperf.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.result.LatencyResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {
    private static final double EPS = 1e-9;

    /*
     * t      = 0, 10000, 22000, 30000, 44000, 52000, 70000, 100000 ns (8 timestamps)
     * deltas = 10000, 12000, 8000, 14000, 8000, 18000, 30000        (7 round trips)
     * sorted = 8000, 8000, 10000, 12000, 14000 | 18000, 30000       (2 largest dropped, n = 5)
     * half RTT in us: 4, 4, 5, 6, 7 | 9, 15
     */
    private static final long[] ODD = {0, 10000, 22000, 30000, 44000, 52000, 70000, 100000};

    @Test
    void oddSampleCountFollowsPerftest() {
        LatencyStats s = LatencyStats.fromTimestamps(ODD, ODD.length);
        assertEquals(5, s.samples());
        assertEquals(4.0, s.minUs(), EPS);
        assertEquals(9.0, s.maxUs(), EPS, "perftest prints delta[n], the first dropped sample");
        assertEquals(5.0, s.typicalUs(), EPS, "median of 4,4,5,6,7");
        assertEquals(26.0 / 5, s.avgUs(), EPS, "(4+4+5+6+7)/5");
        // deviations -1.2 -1.2 -0.2 0.8 1.8 -> squares 1.44+1.44+0.04+0.64+3.24 = 6.8 -> sqrt(6.8/5)
        assertEquals(Math.sqrt(6.8 / 5), s.stdevUs(), EPS);
        // ceil(5 * 0.99) = 5 and ceil(5 * 0.999) = 5 -> delta[5] = 18000 ns -> 9 us
        assertEquals(9.0, s.p99Us(), EPS);
        assertEquals(9.0, s.p999Us(), EPS);
    }

    /* READ latency: the same timestamps, each round trip reported whole (factor 1): 8, 8, 10, 12, 14 | 18, 30 us. */
    @Test
    void readLatencyReportsWholeRoundTrips() {
        LatencyStats s = LatencyStats.fromTimestamps(ODD, ODD.length, 1);
        assertEquals(5, s.samples());
        assertEquals(8.0, s.minUs(), EPS);
        assertEquals(18.0, s.maxUs(), EPS);
        assertEquals(10.0, s.typicalUs(), EPS);
        assertEquals(52.0 / 5, s.avgUs(), EPS);
        assertEquals(30000, s.histogram().getMaxValue(), 30000 * 0.001, "the histogram holds every whole round trip, ns");
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.fromTimestamps(ODD, ODD.length, 3));
    }

    /*
     * t      = 0, 2000, 6000, 12000, 20000, 30000, 60000 ns
     * deltas = 2000, 4000, 6000, 8000 | 10000, 30000 (n = 4): half RTT 1, 2, 3, 4 | 5, 15 us
     */
    @Test
    void evenSampleCountAveragesTheMiddlePair() {
        long[] t = {0, 2000, 6000, 12000, 20000, 30000, 60000, 99, 99};
        LatencyStats s = LatencyStats.fromTimestamps(t, 7);
        assertEquals(4, s.samples());
        assertEquals(2.5, s.typicalUs(), EPS, "(2 + 3) / 2");
        assertEquals(2.5, s.avgUs(), EPS);
        assertEquals(Math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 4), s.stdevUs(), EPS);
        assertEquals(5.0, s.maxUs(), EPS);
        assertEquals(5.0, s.p99Us(), EPS, "ceil(4 * 0.99) = 4");
    }

    @Test
    void percentileIndexUsesCeilOfKeptCount() {
        // 1003 timestamps, delta[i] = 2000 (i + 1) ns: half round trips 1 .. 1002 us; 2 dropped, n = 1000
        long[] t = new long[1003];
        for (int i = 1; i < t.length; i++) {
            t[i] = t[i - 1] + 2000L * i;
        }
        LatencyStats s = LatencyStats.fromTimestamps(t, t.length);
        assertEquals(1000, s.samples());
        // sorted half RTTs are 1, 2, ... 1002 us; ceil(1000 * 0.99) = 990 -> 991 us; ceil(999.0) = 999 -> 1000 us
        assertEquals(991.0, s.p99Us(), EPS);
        assertEquals(1000.0, s.p999Us(), EPS);
        assertEquals(1001.0, s.maxUs(), EPS);
        assertEquals(1.0, s.minUs(), EPS);
        assertEquals((500.0 + 501.0) / 2, s.typicalUs(), EPS);
    }

    @Test
    void histogramHoldsEveryHalfRoundTripInNanoseconds() {
        Histogram h = LatencyStats.fromTimestamps(ODD, ODD.length).histogram();
        assertEquals(7, h.getTotalCount(), "dropped samples stay in the histogram");
        assertTrue(h.valuesAreEquivalent(15000, h.getMaxValue()));
        assertTrue(h.valuesAreEquivalent(4000, h.getMinValue()));
        assertTrue(h.valuesAreEquivalent(6000, h.getValueAtPercentile(50)));
    }

    @Test
    void resultCarriesTheRunsIterationCount() {
        LatencyResult r = LatencyStats.fromTimestamps(ODD, ODD.length).toResult(2, 1000);
        assertEquals(new LatencyResult(2, 1000, 4, 9, 5, 5.2, Math.sqrt(6.8 / 5), 9, 9), r);
    }

    @Test
    void tooFewOrBackwardTimestampsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.fromTimestamps(new long[3], 3));
        assertThrows(IllegalArgumentException.class, () -> LatencyStats.fromTimestamps(new long[5], 6));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LatencyStats.fromTimestamps(new long[] {0, 10, 5, 20, 30}, 5));
        assertEquals("timestamp 2 is earlier than timestamp 1", e.getMessage());
    }
}
