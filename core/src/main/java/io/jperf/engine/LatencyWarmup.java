package io.jperf.engine;

import java.io.IOException;
import java.time.Duration;
import java.util.function.LongSupplier;

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
 * ({@link #totalRounds}). The last rounds run again while either end's JIT worked in them
 * ({@link #runUntilSettled}). Pure; thread-safe.
 */
final class LatencyWarmup {
    /** The rounds whose time sets the pace; a multiple of 256 (see {@link RunSettings#LATENCY_WARMUP_ROUNDS}). */
    static final int PROBE_ROUNDS = 256;

    /** The rounds before the probe: past the JIT's thresholds for the round's methods (5000 calls at most). */
    static final int LEAD_ROUNDS = 8 * 256;

    /** The most times the warm-up's last rounds run again because a JIT worked in them. */
    static final int MAX_SETTLE_RUNS = 4;

    /**
     * The rounds of one run while settling: enough for the JIT's next step on the round's methods. C1's code
     * with counters only asks for its next tier every 2,048 calls, C1's profiling code asks for C2 after
     * 5,000-15,000 calls (HotSpot's Tier4InvocationThreshold and Tier4CompileThreshold), and a round calls them once.
     */
    static final int SETTLE_ROUNDS = 64 * 256;

    private LatencyWarmup() {
    }

    /**
     * The rounds of one settling run: {@link #SETTLE_ROUNDS}, fewer where the round is so slow that all the runs
     * would not fit in the warm-up's time bound, and no more than were agreed (at least 256, a multiple of 256).
     *
     * @param agreedRounds the rounds both ends agreed on, a multiple of 256; at least {@link #PROBE_ROUNDS}
     * @param probeNanos   the slower end's time for the {@link #PROBE_ROUNDS} probe rounds
     */
    static int settleRounds(int agreedRounds, long probeNanos, Duration budget) {
        requireValid(agreedRounds);
        long perRound = Math.max(1, probeNanos / PROBE_ROUNDS);
        long fit = budget.toNanos() / (MAX_SETTLE_RUNS + 1) / perRound / 256 * 256;
        return (int) Math.max(256, Math.min(Math.min(SETTLE_ROUNDS, agreedRounds), fit));
    }

    /** What {@link #runUntilSettled} does between its readings of the JIT's work. */
    interface SettleSteps {
        /**
         * Runs the warm-up's last rounds once.
         *
         * @param run 1 for the first run, then 2, 3, ...
         */
        void runLastRounds(int run) throws IOException;

        /**
         * @param oursWorked whether this end's JIT worked during the last run
         * @return whether this end's or the peer's did (a ping-pong's ends tell each other, so both decide alike)
         */
        boolean eitherWorked(boolean oursWorked) throws IOException;

        /** Waits for this end's JIT to go quiet. */
        void pauseForJit();
    }

    /**
     * Runs the warm-up's last rounds, then again after a pause for the JIT as long as a JIT worked during them, at
     * most {@link #MAX_SETTLE_RUNS} times more. Why: a method the JIT compiled at a tier it leaves later (C1 with
     * counters only, chosen while C2 was busy, then C1 with a profile) asks for its next compile only when it runs
     * and its counters overflow, which a pause cannot bring forward. In the lab, with the JIT's threads on the
     * test's CPU, such compiles of the round, started in the last warm-up rounds or in the first measured ones,
     * ran in the measured rounds and stopped them for 3-12 ms at a time (jperf against jperf, write-lat).
     *
     * @param jitClock the JIT's work so far in ns ({@link JitWarmup#jitClock}), negative if unknown
     * @return how many times the last rounds ran, at least 1
     */
    static int runUntilSettled(SettleSteps steps, LongSupplier jitClock) throws IOException {
        for (int runs = 1; ; runs++) {
            long before = jitClock.getAsLong();
            steps.runLastRounds(runs);
            if (runs > MAX_SETTLE_RUNS || !steps.eitherWorked(JitWarmup.busy(before, jitClock.getAsLong()))) {
                return runs;
            }
            steps.pauseForJit();
        }
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
