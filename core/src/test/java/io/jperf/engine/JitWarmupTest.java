package io.jperf.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitWarmupTest {
    private static final long MS = 1_000_000L;
    private final JitWarmup oneSecond = new JitWarmup(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> 0);

    @Test
    void slicesAreAQuarterOfTheMinimum() {
        assertEquals(250 * MS, oneSecond.sliceNanos());
    }

    @Test
    void runsTheMinimumEvenWhenTheJitIsQuiet() {
        assertTrue(oneSecond.more(750 * MS, 40, 40));
    }

    @Test
    void goesOnWhileTheJitCompiles() {
        assertTrue(oneSecond.more(1250 * MS, 40 * MS, 41 * MS));
    }

    @Test
    void endsAfterTheMinimumOnceASliceWasQuiet() {
        assertFalse(oneSecond.more(1250 * MS, 41 * MS, 41 * MS));
    }

    @Test
    void stopsAtTenTimesTheMinimumWhateverTheJitDoes() {
        assertEquals(10_000 * MS, oneSecond.maxNanos());
        assertFalse(oneSecond.more(10_000 * MS, 40 * MS, 99 * MS));
    }

    @Test
    void theCapStaysBelowHalfTheTimeout() {
        JitWarmup plan = new JitWarmup(Duration.ofSeconds(2), Duration.ofSeconds(8), () -> 0);
        assertEquals(4_000 * MS, plan.maxNanos());
        assertFalse(plan.more(4_000 * MS, MS, 2 * MS));
        assertTrue(plan.more(3_000 * MS, MS, 2 * MS));
    }

    @Test
    void theCapIsNeverBelowTheMinimum() {
        JitWarmup plan = new JitWarmup(Duration.ofSeconds(5), Duration.ofSeconds(4), () -> 0);
        assertEquals(5_000 * MS, plan.maxNanos());
        assertTrue(plan.more(4_900 * MS, 1, 1));
    }

    @Test
    void withoutJitMonitoringTheWarmupIsTheMinimum() {
        JitWarmup blind = new JitWarmup(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> -1);
        assertTrue(blind.more(999 * MS, blind.compiled(), blind.compiled()));
        assertFalse(blind.more(1000 * MS, blind.compiled(), blind.compiled()));
    }

    @Test
    void aFailedSliceEndsTheRunAtOnce() {
        int[] slices = {0};
        assertFalse(oneSecond.run(() -> ++slices[0] < 2));
        assertEquals(2, slices[0], "the run stops at the slice that failed");
    }

    @Test
    void aRunWithAQuietJitLastsItsMinimumSliceBySlice() {
        JitWarmup plan = new JitWarmup(Duration.ofMillis(40), Duration.ofSeconds(60), () -> 0);
        int[] slices = {0};
        long start = System.nanoTime();
        assertTrue(plan.run(() -> {
            slices[0]++;
            sleepNanos(plan.sliceNanos());
            return true;
        }));
        long elapsed = System.nanoTime() - start;
        assertTrue(elapsed >= 40 * MS, "at least the minimum: " + elapsed);
        assertTrue(slices[0] <= 5, "a quiet JIT ends it once 40 ms have passed (10 ms slices), not at the 400 ms"
                + " cap: " + slices[0] + " slices");
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void lessThanHalfAMillisecondOfCompilingIsQuiet() {
        assertFalse(JitWarmup.busy(10 * MS, 10 * MS + 400_000));
        assertTrue(JitWarmup.busy(10 * MS, 11 * MS));
        assertFalse(JitWarmup.busy(-1, 99 * MS), "unknown is never busy");
    }

    @Test
    void thisJvmShowsItsCompilersWork() {
        assertTrue(JitWarmup.jitClock().getAsLong() > 0, "the compiler threads' CPU time, or HotSpot's compile time");
    }

    @Test
    void awaitQuietReturnsOnceTheJitStopped() {
        long[] work = {0};
        long start = System.nanoTime();
        JitWarmup plan = new JitWarmup(Duration.ZERO, Duration.ofSeconds(60), () -> {
            if (System.nanoTime() - start < 300 * MS) {
                work[0] += 5 * MS; // compiling for the first 300 ms
            }
            return work[0];
        });
        assertTrue(plan.awaitQuiet(5_000 * MS));
        long took = System.nanoTime() - start;
        assertTrue(took >= 250 * MS + JitWarmup.QUIET_WINDOW_NANOS, "waited for the compiles and a quiet window: " + took);
        assertTrue(took < 3_000 * MS, "returned soon after: " + took);
    }

    @Test
    void awaitQuietGivesUpAtItsBound() {
        long[] work = {0};
        JitWarmup busy = new JitWarmup(Duration.ZERO, Duration.ofSeconds(60), () -> work[0] += 5 * MS);
        long start = System.nanoTime();
        assertFalse(busy.awaitQuiet(250 * MS));
        assertTrue(System.nanoTime() - start < 2_000 * MS);
        assertFalse(new JitWarmup(Duration.ZERO, Duration.ofSeconds(60), () -> -1).awaitQuiet(1_000 * MS),
                "an unknown JIT is not waited for");
    }

    @Test
    void pausesOnlyPastTheMinimumAndOnlyAfterABusySlice() {
        long[] calls = {0};
        JitWarmup counting = new JitWarmup(Duration.ofSeconds(1), Duration.ofSeconds(60), () -> {
            calls[0]++;
            return 0;
        });
        counting.pauseIfCompiling(500 * MS, 0, 9 * MS);
        counting.pauseIfCompiling(1_500 * MS, 9 * MS, 9 * MS);
        assertEquals(0, calls[0], "no pause before the minimum or after a quiet slice");
        counting.pauseIfCompiling(1_500 * MS, 0, 9 * MS);
        assertTrue(calls[0] > 0, "paused after a busy slice");
    }
}
