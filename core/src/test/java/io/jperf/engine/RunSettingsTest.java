package io.jperf.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RunSettingsTest {
    @Test
    void theLatencyWarmupEndsWithAtMost4096RoundsAfterItsPause() {
        assertEquals(4096, RunSettings.latencyWarmupTail(RunSettings.LATENCY_WARMUP_ROUNDS));
        assertEquals(512, RunSettings.latencyWarmupTail(1024));
        assertEquals(256, RunSettings.latencyWarmupTail(768), "half, rounded down to 256");
        assertEquals(0, RunSettings.latencyWarmupTail(256), "too few rounds to split: no pause");
        assertEquals(0, RunSettings.latencyWarmupTail(0));
    }

    @Test
    void bothPartsOfTheWarmupAreWholeCounterCycles() {
        for (int rounds = 0; rounds <= RunSettings.LATENCY_WARMUP_ROUNDS; rounds += 256) {
            int tail = RunSettings.latencyWarmupTail(rounds);
            assertEquals(0, tail % 256);
            assertEquals(0, (rounds - tail) % 256);
        }
    }

    @Test
    void theJitPauseStaysWellInsideThePeersTimeout() {
        assertEquals(Duration.ofSeconds(10), RunSettings.maxJitPause(Duration.ofSeconds(60)));
        assertEquals(Duration.ofSeconds(2), RunSettings.maxJitPause(Duration.ofSeconds(8)));
    }
}
