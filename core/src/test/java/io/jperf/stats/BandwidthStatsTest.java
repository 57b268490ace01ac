package io.jperf.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jperf.result.BandwidthResult;
import io.jperf.result.BandwidthResult.Unit;
import org.junit.jupiter.api.Test;

class BandwidthStatsTest {
    private static final double EPS = 1e-9;
    private static final double MIB = 1 << 20;

    /*
     * 4 messages of 1000 B, CQ moderation 2: completions recorded at j = 1 and j = 3.
     * posts p = 0, 100, 200, 300; completions c[1] = 400, c[3] = 1000 (ns)
     * windows (c[j] - p[i]) / (j - i + 1):
     *   i=0: j=1 400/2 = 200, j=3 1000/4 = 250;  i=1: j=1 300/1, j=3 900/3 = 300
     *   i=2: j=3 800/2 = 400;                     i=3: j=3 700/1
     * best = 200 ns/message -> peak 1000 B / 200 ns = 5e9 B/s
     * average = 4 x 1000 B / (1000 - 0) ns = 4e9 B/s; message rate = 4 / 1000 ns = 4 Mpps
     */
    @Test
    void peakAverageAndRateByHand() {
        long[] posts = {0, 100, 200, 300};
        long[] completions = {0, 400, 0, 1000};
        BandwidthResult r = BandwidthStats.compute(posts, completions, 4, 1, 1000, 2, 1, Unit.MIB_PER_SEC);
        assertEquals(1000, r.sizeBytes());
        assertEquals(4, r.iterations());
        assertEquals(5e9 / MIB, r.peak(), EPS);
        assertEquals(4e9 / MIB, r.average(), EPS);
        assertEquals(4.0, r.messageRateMpps(), EPS);

        BandwidthResult g = BandwidthStats.compute(posts, completions, 4, 1, 1000, 2, 1, Unit.GBIT_PER_SEC);
        assertEquals(40.0, g.peak(), EPS, "5e9 B/s x 8 bit / 1e9");
        assertEquals(32.0, g.average(), EPS);
    }

    /*
     * 5 messages, CQ moderation 2: recorded at j = 1, 3 and the last, 4 (5 % 2 != 0).
     * p = 0, 10, 20, 30, 40; c[1] = 300, c[3] = 500, c[4] = 510
     * the last-completion window i=0, j=4: 510 / 5 = 102 ns beats every moderated window
     * (best of those: i=0, j=3: 500 / 4 = 125).
     */
    @Test
    void theLastCompletionAlsoEndsAWindowWhenIterationsAreNotAMultipleOfCqModeration() {
        long[] posts = {0, 10, 20, 30, 40};
        long[] completions = {0, 300, 0, 500, 510};
        BandwidthResult r = BandwidthStats.compute(posts, completions, 5, 1, 102, 2, 1, Unit.MIB_PER_SEC);
        assertEquals(1e9 / MIB, r.peak(), EPS, "102 B per 102 ns");
        assertEquals(5 * 102 * 1e9 / 510 / MIB, r.average(), EPS);
    }

    /*
     * 2 QPs x 2 iterations = 4 messages, post list 2: windows start only at i = 0 and i = 2.
     * p = 0, -, 50, -; c (cq mod 1) = 100, 110, 180, 200
     * i=0: 100/1, 110/2 = 55, 180/3 = 60, 200/4 = 50;  i=2: 130/1, 150/2 = 75  -> best 50
     */
    @Test
    void postListWindowsStartAtEveryPostCall() {
        long[] posts = {0, 999_999, 50, 999_999};
        long[] completions = {100, 110, 180, 200};
        BandwidthResult r = BandwidthStats.compute(posts, completions, 2, 2, 50, 1, 2, Unit.MIB_PER_SEC);
        assertEquals(4, r.iterations(), "iterations x QPs");
        assertEquals(1e9 / MIB, r.peak(), EPS, "50 B per 50 ns");
    }

    @Test
    void elapsedOnlyFiguresHaveNoPeak() {
        // 1000 messages of 1 MiB in 2 s -> 500 MiB/s, 1000 / 2 / 1e6 = 0.0005 Mpps
        BandwidthResult r = BandwidthStats.fromElapsed(2_000_000_000L, 1000, 1 << 20, Unit.MIB_PER_SEC);
        assertEquals(0, r.peak());
        assertEquals(500.0, r.average(), EPS);
        assertEquals(0.0005, r.messageRateMpps(), EPS);
    }

    @Test
    void shortArraysAndEmptyTimeAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BandwidthStats.compute(new long[3], new long[4], 4, 1, 1, 1, 1, Unit.MIB_PER_SEC));
        assertEquals("timestamp arrays hold 3 posts and 4 completions; 4 messages need 4 each", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> BandwidthStats.fromElapsed(0, 1, 1, Unit.MIB_PER_SEC));
    }
}
