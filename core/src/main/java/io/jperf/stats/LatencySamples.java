package io.jperf.stats;

import java.util.Arrays;

/**
 * One message size's raw latency samples, as perftest's {@code -U} and {@code -H} print them: the
 * differences of consecutive ping-pong timestamps, each divided by the round-trip factor, in microseconds.
 * A view of the measurement loop's timestamp array: it is only valid while the listener that receives
 * it runs (the loop reuses the array for the next size); the arrays it returns are fresh copies,
 * allocated when asked for, never in the loop.
 *
 * <p>Not thread-safe; use it on the thread that received it.
 */
public final class LatencySamples {
    private final long[] tNanos;
    private final int count;
    private final int rttFactor;

    /**
     * @param tNanos    the loop's timestamps in nanoseconds, one per iteration
     * @param count     how many of them the run filled (at least {@link LatencyStats#DROPPED_TAIL} + 2)
     * @param rttFactor 2 for the ping-pong tests (half round trips), 1 for READ and atomic latency
     */
    public LatencySamples(long[] tNanos, int count, int rttFactor) {
        if (rttFactor != 1 && rttFactor != 2) {
            throw new IllegalArgumentException("the round-trip factor is 1 or 2, not " + rttFactor);
        }
        if (count < LatencyStats.DROPPED_TAIL + 2 || count > tNanos.length) {
            throw new IllegalArgumentException("need between " + (LatencyStats.DROPPED_TAIL + 2) + " and "
                    + tNanos.length + " timestamps (got count " + count + ")");
        }
        this.tNanos = tNanos;
        this.count = count;
        this.rttFactor = rttFactor;
    }

    /** perftest's {@code -U}: every sample ({@code count - 1}) in the order measured, in microseconds. */
    public double[] unsortedUs() {
        double toUs = 1000.0 * rttFactor;
        double[] us = new double[count - 1];
        for (int i = 0; i < us.length; i++) {
            us[i] = (tNanos[i + 1] - tNanos[i]) / toUs;
        }
        return us;
    }

    /**
     * perftest's {@code -H}: the samples sorted, without the {@link LatencyStats#DROPPED_TAIL} largest
     * (those perftest leaves out of every figure), in microseconds.
     */
    public double[] sortedKeptUs() {
        long[] delta = new long[count - 1];
        for (int i = 0; i < delta.length; i++) {
            delta[i] = tNanos[i + 1] - tNanos[i];
        }
        Arrays.sort(delta);
        double toUs = 1000.0 * rttFactor;
        double[] us = new double[delta.length - LatencyStats.DROPPED_TAIL];
        for (int i = 0; i < us.length; i++) {
            us[i] = delta[i] / toUs;
        }
        return us;
    }
}
