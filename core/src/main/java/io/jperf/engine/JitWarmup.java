package io.jperf.engine;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When a bandwidth warm-up may end: it lasts at least the requested time, then goes on, one slice
 * (a quarter of that time) after another, until the JIT compiled nothing during a whole slice, and
 * at most ten times the requested time (and half the test timeout).
 *
 * <p>A fixed warm-up is not enough when the compiler is slow or shares the test's CPU: in the
 * emulated lab with each JVM on one vCPU, the JIT compiled the bandwidth loop's poll 1.7 s after a
 * 1 s warm-up had ended, so most of the measured writes ran in the interpreter (2 B message rate
 * 0.018 Mpps after 1 s, 0.0235 after 5 s; perftest 0.0244).
 *
 * <p>The JIT's activity is read from {@link CompilationMXBean#getTotalCompilationTime()}; where the
 * JVM does not monitor it the warm-up is the requested time. Immutable; thread-safe.
 */
final class JitWarmup {
    static final int MAX_FACTOR = 10;
    static final int SLICES = 4;

    private final long minNanos;
    private final long maxNanos;
    private final LongSupplier compileMillis;

    /**
     * @param compileMillis the JIT's accumulated compile time in ms, or a negative value if unknown
     */
    JitWarmup(Duration min, Duration timeout, LongSupplier compileMillis) {
        this.minNanos = min.toNanos();
        this.maxNanos = Math.max(minNanos, Math.min(minNanos * MAX_FACTOR, timeout.toNanos() / 2));
        this.compileMillis = compileMillis;
    }

    /** A warm-up of at least {@code min} against this JVM's JIT. */
    static JitWarmup of(Duration min, Duration timeout) {
        return new JitWarmup(min, timeout, jitClock());
    }

    static LongSupplier jitClock() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return () -> -1;
        }
        return jit::getTotalCompilationTime;
    }

    long sliceNanos() {
        return Math.max(1, minNanos / SLICES);
    }

    long maxNanos() {
        return maxNanos;
    }

    /** The JIT's compile time now (ms), to pass to {@link #more} after the next slice. */
    long compiled() {
        return compileMillis.getAsLong();
    }

    /**
     * @param elapsedNanos   warm-up time so far
     * @param compiledBefore {@link #compiled()} when the last slice began
     * @param compiledAfter  {@link #compiled()} when it ended
     * @return true to warm up for one more slice
     */
    boolean more(long elapsedNanos, long compiledBefore, long compiledAfter) {
        if (elapsedNanos >= maxNanos) {
            return false;
        }
        if (elapsedNanos < minNanos) {
            return true;
        }
        return compiledBefore >= 0 && compiledAfter != compiledBefore;
    }
}
