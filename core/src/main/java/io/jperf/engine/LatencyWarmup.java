package io.jperf.engine;

import java.time.Duration;

/**
 * How many unmeasured rounds a latency test with a jperf peer runs: at most the rounds both ends
 * agreed ({@link RunSettings#LATENCY_WARMUP_ROUNDS}), and no more than fit in {@link JitWarmup#MAX_FACTOR}
 * times {@code --warmup} at the pace of a first probe of {@link #PROBE_ROUNDS} rounds.
 *
 * <p>Why: the JIT needs a number of rounds, not a time, so a fast path warms up by rounds (40,960
 * rounds are 0.1-0.2 s on hardware, about 1 s in the emulated lab). But where a round is slow, e.g.
 * two busy-polling ends sharing one CPU, where each round waits for the scheduler's tick (about 4 ms,
 * 250 times the lab's usual round), the fixed count would take minutes; there the JIT's work is lost
 * in the round's cost anyway, so the warm-up stops at its time bound.
 *
 * <p>Both ends of a ping-pong must run the same rounds: each measures its probe, they exchange the two
 * times, and each computes the count from the slower one ({@link #totalRounds}). Pure; thread-safe.
 */
final class LatencyWarmup {
    /** The rounds whose time sets the pace; a multiple of 256 (see {@link RunSettings#LATENCY_WARMUP_ROUNDS}). */
    static final int PROBE_ROUNDS = 256;

    private LatencyWarmup() {
    }

    /** The longest a latency warm-up may take for a given {@code --warmup}. */
    static Duration budget(Duration warmup) {
        return warmup.multipliedBy(JitWarmup.MAX_FACTOR);
    }

    /**
     * @param agreedRounds the rounds both ends agreed on, a multiple of 256; at least {@link #PROBE_ROUNDS}
     * @param probeNanos   the slower end's time for the {@link #PROBE_ROUNDS} probe rounds
     * @param budget       the longest the whole warm-up (probe included) may take
     * @return all the warm-up's rounds, probe included: a multiple of 256, between {@link #PROBE_ROUNDS}
     *         and {@code agreedRounds}
     */
    static int totalRounds(int agreedRounds, long probeNanos, Duration budget) {
        if (agreedRounds < PROBE_ROUNDS || agreedRounds % 256 != 0) {
            throw new IllegalArgumentException("warm-up rounds " + agreedRounds + ": a multiple of 256, at least " + PROBE_ROUNDS);
        }
        long perRound = Math.max(1, probeNanos / PROBE_ROUNDS);
        long left = budget.toNanos() - Math.max(0, probeNanos);
        long more = left <= 0 ? 0 : left / perRound / 256 * 256;
        return (int) Math.min(agreedRounds, PROBE_ROUNDS + more);
    }
}
