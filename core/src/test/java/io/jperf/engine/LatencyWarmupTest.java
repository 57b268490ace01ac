package io.jperf.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LatencyWarmupTest {
    private static final int AGREED = RunSettings.LATENCY_WARMUP_ROUNDS;
    private static final Duration TEN_SECONDS = LatencyWarmup.budget(Duration.ofSeconds(1));

    @Test
    void theBudgetIsTenTimesTheWarmup() {
        assertEquals(Duration.ofSeconds(10), TEN_SECONDS);
    }

    @Test
    void aFastPathRunsEveryAgreedRound() {
        // hardware: ~3 us a round
        assertEquals(AGREED, LatencyWarmup.totalRounds(AGREED, 256 * 3_000L, TEN_SECONDS));
        // the 2-vCPU lab's interpreted first rounds: ~100 us each, still every round
        assertEquals(AGREED, LatencyWarmup.totalRounds(AGREED, 256 * 100_000L, TEN_SECONDS));
    }

    @Test
    void aSlowPathStopsAtTheBudget() {
        // one CPU for both busy-polling ends: a round waits ~4 ms for the scheduler's tick
        int rounds = LatencyWarmup.totalRounds(AGREED, 256 * 4_000_000L, TEN_SECONDS);
        assertEquals(2304, rounds); // 256 probe + 2048 (8.976 s / 4 ms = 2244, down to a multiple of 256)
        assertEquals(0, rounds % 256);
    }

    @Test
    void aProbeThatTookTheWholeBudgetEndsTheWarmup() {
        assertEquals(LatencyWarmup.PROBE_ROUNDS, LatencyWarmup.totalRounds(AGREED, 20_000_000_000L, TEN_SECONDS));
        assertEquals(LatencyWarmup.PROBE_ROUNDS, LatencyWarmup.totalRounds(AGREED, 256 * 39_000_000L, TEN_SECONDS));
    }

    @Test
    void neverMoreThanAgreed() {
        assertEquals(512, LatencyWarmup.totalRounds(512, 256, TEN_SECONDS));
        assertEquals(256, LatencyWarmup.totalRounds(256, 0, TEN_SECONDS));
    }

    @Test
    void refusesCountsThatBreakTheCounterBytes() {
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(300, 1, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.totalRounds(0, 1, TEN_SECONDS));
    }
}
