package io.jperf.engine;

import java.time.Duration;

/**
 * How many unmeasured rounds a latency test with a jperf peer runs: at most the rounds both ends
 * agreed ({@link RunSettings#LATENCY_WARMUP_ROUNDS}), and no more than fit in {@link JitWarmup#MAX_FACTOR}
 * times {@code --warmup}.
 *
 * <p>Why: the JIT needs a number of rounds, not a time, so a fast path warms up by rounds (40,960
 * rounds are 0.1-0.2 s on hardware, about 1 s in the emulated lab). But where a round is slow, e.g.
 * two busy-polling ends sharing one CPU, where each round waits for the scheduler's tick (about 4 ms,
 * 250 times the lab's usual round), the fixed count would take minutes; there the JIT's work is lost
 * in the round's cost anyway, so the warm-up stops at its time bound.
 *
 * <p>The pace comes from compiled code, not from the interpreter: first {@link #leadRounds} rounds
 * (enough for the JIT to compile the round), a pause for the compiler, then a probe of
 * {@link #PROBE_ROUNDS} timed rounds. Both ends of a ping-pong must run the same rounds: they exchange
 * their probe times and elapsed times, and each computes the count from the slower of each
 * ({@link #totalRounds}). Pure; thread-safe.
 */
final class LatencyWarmup {
    /** The rounds whose time sets the pace; a multiple of 256 (see {@link RunSettings#LATENCY_WARMUP_ROUNDS}). */
    static final int PROBE_ROUNDS = 256;

    /** The rounds before the probe: past the JIT's thresholds for the round's methods (5000 calls at most). */
    static final int LEAD_ROUNDS = 8 * 256;

    private LatencyWarmup() {
    }

    /** The longest a latency warm-up may take for a given {@code --warmup}. */
    static Duration budget(Duration warmup) {
        return warmup.multipliedBy(JitWarmup.MAX_FACTOR);
    }

    /**
     * The rounds before the probe: {@link #LEAD_ROUNDS}, fewer when fewer were agreed (a multiple of
     * 256 that leaves room for the probe), 0 when only the probe fits.
     */
    static int leadRounds(int agreedRounds) {
        requireValid(agreedRounds);
        return Math.min(LEAD_ROUNDS, agreedRounds - PROBE_ROUNDS);
    }

    /**
     * @param agreedRounds the rounds both ends agreed on, a multiple of 256; at least {@link #PROBE_ROUNDS}
     * @param doneRounds   the rounds already run: the lead and the probe
     * @param probeNanos   the slower end's time for the {@link #PROBE_ROUNDS} probe rounds
     * @param elapsedNanos the slower end's time since the warm-up began, probe included
     * @param budget       the longest the whole warm-up may take
     * @return all the warm-up's rounds, those done included: a multiple of 256, between
     *         {@code doneRounds} and {@code agreedRounds}
     */
    static int totalRounds(int agreedRounds, int doneRounds, long probeNanos, long elapsedNanos, Duration budget) {
        requireValid(agreedRounds);
        if (doneRounds < PROBE_ROUNDS || doneRounds > agreedRounds || doneRounds % 256 != 0) {
            throw new IllegalArgumentException("warm-up rounds done " + doneRounds + ": a multiple of 256 between "
                    + PROBE_ROUNDS + " and " + agreedRounds);
        }
        long perRound = Math.max(1, probeNanos / PROBE_ROUNDS);
        long left = budget.toNanos() - Math.max(0, elapsedNanos);
        long more = left <= 0 ? 0 : left / perRound / 256 * 256;
        return (int) Math.min(agreedRounds, doneRounds + more);
    }

    private static void requireValid(int agreedRounds) {
        if (agreedRounds < PROBE_ROUNDS || agreedRounds % 256 != 0) {
            throw new IllegalArgumentException("warm-up rounds " + agreedRounds + ": a multiple of 256, at least " + PROBE_ROUNDS);
        }
    }
}
