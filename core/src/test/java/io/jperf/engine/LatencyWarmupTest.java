package io.jperf.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LatencyWarmupTest {
    private static final int AGREED = RunSettings.LATENCY_WARMUP_ROUNDS;
    private static final Duration TEN_SECONDS = LatencyWarmup.budget(Duration.ofSeconds(1));
    /** The lead and the probe. */
    private static final int DONE = LatencyWarmup.LEAD_ROUNDS + LatencyWarmup.PROBE_ROUNDS;

    @Test
    void theBudgetIsTenTimesTheWarmup() {
        assertEquals(Duration.ofSeconds(10), TEN_SECONDS);
    }

    @Test
    void theLeadLeavesRoomForTheProbe() {
        assertEquals(2048, LatencyWarmup.leadRounds(AGREED));
        assertEquals(2048, LatencyWarmup.leadRounds(2304));
        assertEquals(1792, LatencyWarmup.leadRounds(2048));
        assertEquals(0, LatencyWarmup.leadRounds(256));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.leadRounds(300));
    }

    @Test
    void aFastPathRunsEveryAgreedRound() {
        // hardware: ~3 us a round; the 2-vCPU lab's compiled round: ~30 us, lead and pause 1.5 s
        assertEquals(AGREED, LatencyWarmup.totalRounds(AGREED, DONE, 256 * 3_000L, 10_000_000L, TEN_SECONDS));
        assertEquals(AGREED, LatencyWarmup.totalRounds(AGREED, DONE, 256 * 30_000L, 1_500_000_000L, TEN_SECONDS));
    }

    @Test
    void aSlowPathStopsAtTheBudget() {
        // one CPU for both busy-polling ends: a round waits ~4 ms for the tick; lead + probe ~9.2 s,
        // so 0.8 s are left: 200 rounds, none of them a whole 256
        assertEquals(DONE, LatencyWarmup.totalRounds(AGREED, DONE, 256 * 4_000_000L, 9_216_000_000L, TEN_SECONDS));
        // with 20 s (--warmup 2): 10.784 s left, 2696 rounds, down to 2560
        assertEquals(DONE + 2560, LatencyWarmup.totalRounds(AGREED, DONE, 256 * 4_000_000L, 9_216_000_000L,
                TEN_SECONDS.multipliedBy(2)));
    }

    @Test
    void theSlowerPaceAndTheElapsedTimeBothCount() {
        // 1 ms a round: 5 s left after 5 s fit 4864 more; after 9 s, 1 s left fits 768
        assertEquals(DONE + 4864, LatencyWarmup.totalRounds(AGREED, DONE, 256_000_000L, 5_000_000_000L, TEN_SECONDS));
        assertEquals(DONE + 768, LatencyWarmup.totalRounds(AGREED, DONE, 256_000_000L, 9_000_000_000L, TEN_SECONDS));
    }

    @Test
    void aWarmupPastItsBudgetEndsAfterTheProbe() {
        assertEquals(DONE, LatencyWarmup.totalRounds(AGREED, DONE, 1_000L, 20_000_000_000L, TEN_SECONDS));
        assertEquals(256, LatencyWarmup.totalRounds(AGREED, 256, 256 * 39_000_000L, 256 * 39_000_000L, TEN_SECONDS));
    }

    @Test
    void neverMoreThanAgreedNorLessThanDone() {
        assertEquals(512, LatencyWarmup.totalRounds(512, 512, 256, 256, TEN_SECONDS));
        assertEquals(2048, LatencyWarmup.totalRounds(2048, 2048, 0, 0, TEN_SECONDS));
        assertEquals(AGREED, LatencyWarmup.totalRounds(AGREED, DONE, 0, 0, TEN_SECONDS));
    }

    @Test
    void refusesCountsThatBreakTheCounterBytes() {
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(300, 256, 1, 1, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(0, 256, 1, 1, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(AGREED, 300, 1, 1, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(512, 768, 1, 1, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(512, 0, 1, 1, TEN_SECONDS));
    }
}
