package io.jperf.engine;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

    @Test
    void quietLastRoundsRunOnce() throws Exception {
        Settling settling = new Settling(new long[] {5_000_000L, 5_000_000L});
        assertEquals(1, LatencyWarmup.runUntilSettled(settling, settling::jit));
        assertEquals(List.of("run", "told false"), settling.steps);
    }

    @Test
    void lastRoundsInWhichTheJitWorkedRunAgainAfterAPause() throws Exception {
        // the JIT's work: 2 ms in the first run, 1 ms in the second, none in the third
        Settling settling = new Settling(new long[] {0, 2_000_000L, 2_000_000L, 3_000_000L, 3_000_000L, 3_000_000L});
        assertEquals(3, LatencyWarmup.runUntilSettled(settling, settling::jit));
        assertEquals(List.of("run", "told true", "pause", "run", "told true", "pause", "run", "told false"), settling.steps);
        assertEquals(List.of(1, 2, 3), settling.runs);
    }

    @Test
    void aSettlingRunIsLongEnoughForTheJitsNextStepWhereTheBoundAllows() {
        // the lab's compiled round, ~30 us: 16,384 rounds are 0.5 s of the 10 s bound
        assertEquals(LatencyWarmup.SETTLE_ROUNDS, LatencyWarmup.settleRounds(AGREED, 256 * 30_000L, TEN_SECONDS));
        assertEquals(16_384, LatencyWarmup.SETTLE_ROUNDS);
        // two ends on one CPU, ~4 ms a round: 2 s per run fits 500 rounds, down to 256
        assertEquals(256, LatencyWarmup.settleRounds(AGREED, 256 * 4_000_000L, TEN_SECONDS));
        // slower still: never fewer than 256
        assertEquals(256, LatencyWarmup.settleRounds(AGREED, 256 * 100_000_000L, TEN_SECONDS));
        // ~300 us a round: 2 s per run fits 6,666 rounds, down to 6,656
        assertEquals(6_656, LatencyWarmup.settleRounds(AGREED, 256 * 300_000L, TEN_SECONDS));
        // never more than were agreed: the loop keeps a timestamp per round for that many
        assertEquals(512, LatencyWarmup.settleRounds(512, 256 * 30_000L, TEN_SECONDS));
        assertThrows(IllegalArgumentException.class, () -> LatencyWarmup.settleRounds(300, 1, TEN_SECONDS));
    }

    @Test
    void thePeersJitCountsLikeOurs() throws Exception {
        Settling settling = new Settling(new long[] {0, 0, 0, 0});
        settling.peerWorkedOnce = true;
        assertEquals(2, LatencyWarmup.runUntilSettled(settling, settling::jit));
        assertEquals(List.of("run", "told false", "pause", "run", "told false"), settling.steps);
    }

    @Test
    void aJitThatNeverGoesQuietStopsTheSettlingAtItsBound() throws Exception {
        long[] clock = new long[2 * (LatencyWarmup.MAX_SETTLE_RUNS + 1)];
        for (int i = 0; i < clock.length; i++) {
            clock[i] = i * 10_000_000L;
        }
        Settling settling = new Settling(clock);
        assertEquals(LatencyWarmup.MAX_SETTLE_RUNS + 1, LatencyWarmup.runUntilSettled(settling, settling::jit));
        assertEquals(LatencyWarmup.MAX_SETTLE_RUNS + 1, settling.steps.stream().filter("run"::equals).count());
        assertEquals(LatencyWarmup.MAX_SETTLE_RUNS, settling.steps.stream().filter("pause"::equals).count());
    }

    @Test
    void anUnknownJitCountsAsQuiet() throws Exception {
        Settling settling = new Settling(new long[] {-1, -1});
        assertEquals(1, LatencyWarmup.runUntilSettled(settling, settling::jit));
        assertEquals(List.of("run", "told false"), settling.steps);
    }

    /** Records the steps; the JIT clock reads {@code clock} in turn, the peer's JIT worked as told. */
    private static final class Settling implements LatencyWarmup.SettleSteps {
        final List<String> steps = new ArrayList<>();
        final List<Integer> runs = new ArrayList<>();
        private final long[] clock;
        private int reads;
        boolean peerWorkedOnce;

        Settling(long[] clock) {
            this.clock = clock;
        }

        long jit() {
            return clock[reads++];
        }

        @Override
        public void runLastRounds(int run) {
            steps.add("run");
            runs.add(run);
        }

        @Override
        public boolean eitherWorked(boolean oursWorked) {
            steps.add("told " + oursWorked);
            boolean peer = peerWorkedOnce;
            peerWorkedOnce = false;
            return oursWorked || peer;
        }

        @Override
        public void pauseForJit() {
            steps.add("pause");
        }
    }
}
