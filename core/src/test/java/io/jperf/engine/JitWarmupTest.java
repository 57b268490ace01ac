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
        assertTrue(oneSecond.more(1250 * MS, 40, 41));
    }

    @Test
    void endsAfterTheMinimumOnceASliceWasQuiet() {
        assertFalse(oneSecond.more(1250 * MS, 41, 41));
    }

    @Test
    void stopsAtTenTimesTheMinimumWhateverTheJitDoes() {
        assertEquals(10_000 * MS, oneSecond.maxNanos());
        assertFalse(oneSecond.more(10_000 * MS, 40, 99));
    }

    @Test
    void theCapStaysBelowHalfTheTimeout() {
        JitWarmup plan = new JitWarmup(Duration.ofSeconds(2), Duration.ofSeconds(8), () -> 0);
        assertEquals(4_000 * MS, plan.maxNanos());
        assertFalse(plan.more(4_000 * MS, 1, 2));
        assertTrue(plan.more(3_000 * MS, 1, 2));
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
    void thisJvmReportsItsCompileTime() {
        assertTrue(JitWarmup.jitClock().getAsLong() >= 0, "HotSpot monitors compilation time");
    }
}
