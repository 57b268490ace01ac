package io.jperf.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The samples perftest's -U and -H print, from the same timestamps as {@link LatencyStatsTest}. */
class LatencySamplesTest {
    /* deltas = 10000, 12000, 8000, 14000, 8000, 18000, 30000 ns; the array is longer than the run */
    private static final long[] T = {0, 10000, 22000, 30000, 44000, 52000, 70000, 100000, 999_999_999};

    @Test
    void unsortedIsEveryHalfRoundTripInTheOrderMeasured() {
        assertArrayEquals(new double[] {5, 6, 4, 7, 4, 9, 15}, new LatencySamples(T, 8, 2).unsortedUs(), 1e-12);
    }

    @Test
    void sortedDropsTheTwoLargestAsPerftestsHistogramDoes() {
        assertArrayEquals(new double[] {4, 4, 5, 6, 7}, new LatencySamples(T, 8, 2).sortedKeptUs(), 1e-12);
    }

    @Test
    void readLatencyKeepsWholeRoundTrips() {
        assertArrayEquals(new double[] {8, 8, 10, 12, 14}, new LatencySamples(T, 8, 1).sortedKeptUs(), 1e-12);
    }

    @Test
    void theSortedListAgreesWithTheFigures() {
        double[] kept = new LatencySamples(T, 8, 2).sortedKeptUs();
        LatencyStats stats = LatencyStats.fromTimestamps(T, 8);
        assertEquals(stats.samples(), kept.length);
        assertEquals(stats.minUs(), kept[0], 1e-12);
    }

    @Test
    void tooFewTimestampsOrABadFactorAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LatencySamples(T, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> new LatencySamples(T, 10, 2));
        assertThrows(IllegalArgumentException.class, () -> new LatencySamples(T, 8, 3));
    }
}
