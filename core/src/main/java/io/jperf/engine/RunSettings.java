package io.jperf.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a write test runs, beyond perftest's parameters: the bound on every wait, who hears the
 * run, the settle delay after connecting, whether QoS marking is expected, and how long the
 * data path is warmed up (so the JIT has compiled it) before anything is measured. Immutable.
 *
 * @param timeout     bounds connecting, accepting, every control read and a stalled data path
 * @param listener    hears the run
 * @param settleDelay perftest's pause after connecting in bandwidth tests
 * @param qosExpected report traffic class 0 / Not-ECT as a path problem (F5)
 * @param warmup      bandwidth: how long to write before the first measured size; latency: enables
 *                    {@link #LATENCY_WARMUP_ROUNDS} unmeasured round trips with a jperf peer, as many
 *                    as fit in {@link LatencyWarmup#budget} of it. Zero: none
 * @param cpu         pin the thread running the test to this CPU, -1 for no pinning
 * @param servePeerAddress a client's request to a {@code jperf serve} peer: use the device and GID
 *                    that carry this address (null: the address the control connection reached)
 * @param authSecret  the shared secret a client proves to a {@code jperf serve} that asks for one
 * @param stop        ends a {@code --run_infinitely} run when requested
 */
record RunSettings(Duration timeout, TestListener listener, Duration settleDelay, boolean qosExpected,
                   Duration warmup, int cpu, String servePeerAddress, Optional<AuthSecret> authSecret,
                   StopSignal stop) {
    /**
     * Unmeasured ping-pong rounds before a latency test with a jperf peer: enough for the JIT to
     * compile the round (5000 calls) and, even in the emulated lab (~30 us a round), about a second for the compiler to finish; a multiple of 256 so the counter byte ends where a fresh
     * buffer starts.
     */
    static final int LATENCY_WARMUP_ROUNDS = 160 * 256;

    /** The most warm-up rounds that run after the pause for the JIT (see {@link #latencyWarmupTail}). */
    static final int LATENCY_WARMUP_TAIL_ROUNDS = 16 * 256;

    /** The longest pause of a warm-up for the JIT to finish: the peer waits meanwhile, within its timeout. */
    static final Duration MAX_JIT_PAUSE = Duration.ofSeconds(10);

    /**
     * How many of {@code warmupRounds} (a multiple of 256) run after the latency warm-up's pause for
     * the JIT: half of them, at most {@link #LATENCY_WARMUP_TAIL_ROUNDS}, a multiple of 256 (0 for
     * fewer than 512 rounds: no pause).
     */
    static int latencyWarmupTail(int warmupRounds) {
        return Math.min(LATENCY_WARMUP_TAIL_ROUNDS, warmupRounds / 2 / 256 * 256);
    }

    /** The pause for the JIT during a warm-up: {@link #MAX_JIT_PAUSE}, at most a quarter of the timeout. */
    static Duration maxJitPause(Duration timeout) {
        Duration quarter = timeout.dividedBy(4);
        return quarter.compareTo(MAX_JIT_PAUSE) < 0 ? quarter : MAX_JIT_PAUSE;
    }

    RunSettings {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(settleDelay, "settleDelay");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(authSecret, "authSecret");
        Objects.requireNonNull(stop, "stop");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the timeout must be positive");
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("the warm-up cannot be negative");
        }
    }

    RunSettings withTimeout(Duration value) {
        return new RunSettings(value, listener, settleDelay, qosExpected, warmup, cpu, servePeerAddress, authSecret, stop);
    }

    RunSettings withListener(TestListener value) {
        return new RunSettings(timeout, value, settleDelay, qosExpected, warmup, cpu, servePeerAddress, authSecret, stop);
    }

    RunSettings withSettleDelay(Duration value) {
        return new RunSettings(timeout, listener, value, qosExpected, warmup, cpu, servePeerAddress, authSecret, stop);
    }

    RunSettings withQosExpected(boolean value) {
        return new RunSettings(timeout, listener, settleDelay, value, warmup, cpu, servePeerAddress, authSecret, stop);
    }

    RunSettings withWarmup(Duration value) {
        return new RunSettings(timeout, listener, settleDelay, qosExpected, value, cpu, servePeerAddress, authSecret, stop);
    }

    RunSettings withCpu(int value) {
        return new RunSettings(timeout, listener, settleDelay, qosExpected, warmup, value, servePeerAddress, authSecret, stop);
    }

    RunSettings withAuthSecret(AuthSecret value) {
        return new RunSettings(timeout, listener, settleDelay, qosExpected, warmup, cpu, servePeerAddress,
                Optional.ofNullable(value), stop);
    }

    RunSettings withServePeerAddress(String value) {
        return new RunSettings(timeout, listener, settleDelay, qosExpected, warmup, cpu, value, authSecret, stop);
    }

    RunSettings withStop(StopSignal value) {
        return new RunSettings(timeout, listener, settleDelay, qosExpected, warmup, cpu, servePeerAddress, authSecret,
                value);
    }
}
