package io.jperf.engine;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * When a warm-up may end: when the JIT has compiled the data path and gone quiet, so that nothing
 * is compiled while the test measures. A bandwidth warm-up lasts at least the requested time, then
 * goes on, one slice (a quarter of that time) after another, until the compiler threads did no
 * work during a whole slice; after a slice in which they did, the loop pauses ({@link #awaitQuiet})
 * so that they finish on a CPU the loop does not take from them. At most ten times the requested
 * time (and half the test timeout). A latency warm-up pauses once, before its last rounds.
 *
 * <p>Why: with the tiered JIT, C2 recompiles the hot loop after C1 did, and in a small or emulated
 * machine its compiles take seconds; a compiler thread that runs during the measured window takes
 * CPU from the busy-polling loop or from its peer, and a fixed warm-up can end long before the
 * compiler does (lab/README.md, "jperf started plainly").
 *
 * <p>The JIT's work is read as the CPU time of its compiler threads ({@link JvmThreads}, from
 * {@code /proc}: this sees a compile while it runs), else from
 * {@link CompilationMXBean#getTotalCompilationTime()} (only finished compiles); where neither is
 * available the warm-up is the requested time. Immutable; thread-safe.
 */
final class JitWarmup {
    static final int MAX_FACTOR = 10;
    static final int SLICES = 4;
    /** Compiler threads that used less CPU than this in a slice count as quiet (idle ones use none). */
    static final long QUIET_NANOS = 500_000;
    /** {@link #awaitQuiet} returns once the compiler threads did nothing for this long. */
    static final long QUIET_WINDOW_NANOS = 200_000_000;
    private static final long POLL_MILLIS = 20;

    private final long minNanos;
    private final long maxNanos;
    private final LongSupplier jitNanos;

    /**
     * @param jitNanos the JIT's accumulated work in ns (compiler threads' CPU time), or a negative value if unknown
     */
    JitWarmup(Duration min, Duration timeout, LongSupplier jitNanos) {
        this.minNanos = min.toNanos();
        this.maxNanos = Math.max(minNanos, Math.min(minNanos * MAX_FACTOR, timeout.toNanos() / 2));
        this.jitNanos = jitNanos;
    }

    /** A warm-up of at least {@code min} against this JVM's JIT. */
    static JitWarmup of(Duration min, Duration timeout) {
        return new JitWarmup(min, timeout, jitClock());
    }

    /** The compiler threads' CPU time where {@code /proc} shows it, else the JVM's total compile time. */
    static LongSupplier jitClock() {
        if (JvmThreads.compilerCpuNanos() >= 0) {
            return JvmThreads::compilerCpuNanos;
        }
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return () -> -1;
        }
        return () -> jit.getTotalCompilationTime() * 1_000_000L;
    }

    long sliceNanos() {
        return Math.max(1, minNanos / SLICES);
    }

    long maxNanos() {
        return maxNanos;
    }

    /** The JIT's work so far (ns), to pass to {@link #more} or {@link #busy} after the next slice. */
    long compiled() {
        return jitNanos.getAsLong();
    }

    /** True when the JIT worked between the two readings of {@link #compiled()}. */
    static boolean busy(long compiledBefore, long compiledAfter) {
        return compiledBefore >= 0 && compiledAfter - compiledBefore > QUIET_NANOS;
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
        return busy(compiledBefore, compiledAfter);
    }

    /**
     * Runs {@code slice}, one slice of warm-up work at a time ({@link #sliceNanos()} long), until the warm-up
     * may end ({@link #more}), pausing after a slice in which the JIT worked ({@link #pauseIfCompiling}).
     *
     * @param slice runs one slice; false when the loop failed
     * @return false as soon as a slice failed, true when the warm-up ended
     */
    boolean run(BooleanSupplier slice) {
        long start = System.nanoTime();
        long compiled = compiled();
        while (true) {
            if (!slice.getAsBoolean()) {
                return false;
            }
            long now = compiled();
            long elapsed = System.nanoTime() - start;
            if (!more(elapsed, compiled, now)) {
                return true;
            }
            pauseIfCompiling(elapsed, compiled, now);
            compiled = compiled();
        }
    }

    /**
     * After a slice past the minimum in which the JIT worked: sleeps until it is quiet (at most until
     * the warm-up's cap), so the compiles finish without the loop competing for the CPU.
     */
    void pauseIfCompiling(long elapsedNanos, long compiledBefore, long compiledAfter) {
        if (elapsedNanos >= minNanos && elapsedNanos < maxNanos && busy(compiledBefore, compiledAfter)) {
            awaitQuiet(maxNanos - elapsedNanos);
        }
    }

    /**
     * Sleeps until the JIT has done nothing for {@link #QUIET_WINDOW_NANOS}, at most {@code maxWaitNanos}:
     * the caller's thread leaves its CPU to the compiler threads meanwhile.
     *
     * @return true when the JIT went quiet; false when the wait ran out, the JIT's work cannot be
     *         read, or the thread was interrupted (its interrupt status is kept)
     */
    boolean awaitQuiet(long maxWaitNanos) {
        long start = System.nanoTime();
        long quietSince = start;
        long last = compiled();
        if (last < 0) {
            return false;
        }
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            long now = System.nanoTime();
            long work = compiled();
            if (busy(last, work)) {
                last = work;
                quietSince = now;
            } else if (now - quietSince >= QUIET_WINDOW_NANOS) {
                return true;
            }
            if (now - start >= maxWaitNanos) {
                return false;
            }
        }
    }
}
