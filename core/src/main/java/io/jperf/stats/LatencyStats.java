package io.jperf.stats;

import io.jperf.result.LatencyResult;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Latency figures computed from ping-pong timestamps the way perftest's {@code print_report_lat} does:
 * <ol>
 *   <li>{@code delta[i] = t[i+1] - t[i]}, one round trip each ({@code count - 1} samples);</li>
 *   <li>sorted; the 2 largest are dropped, leaving {@code n = count - 3} kept samples;</li>
 *   <li>every value is divided by the round-trip factor (2 for a ping-pong, whose samples are two
 *       one-way trips; 1 for READ, whose sample is one request's round trip) and shown in microseconds;</li>
 *   <li>t_min = {@code delta[0]}; t_max = {@code delta[n]} (perftest prints the first dropped sample, i.e.
 *       the second largest); t_typical = median of the kept samples (mean of the two middle ones when
 *       {@code n} is even); t_avg = their mean; t_stdev = their population standard deviation;</li>
 *   <li>99% = {@code delta[ceil(n * 0.99)]}, 99.9% = {@code delta[ceil(n * 0.999)]}.</li>
 * </ol>
 * Deliberate differences from perftest 6.06: the standard deviation is exact (perftest truncates each
 * term to whole microseconds) and the median of an even count is not truncated to whole clock ticks.
 *
 * <p>All arrays are allocated here, after the measurement loop; the loop itself only stores timestamps.
 * Immutable once built; the histogram is a private copy handed out as a copy.
 */
public final class LatencyStats {
    /** Samples perftest drops from the top of the sorted distribution. */
    public static final int DROPPED_TAIL = 2;
    /** HdrHistogram precision of {@link #histogram()}. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final int samples;
    private final double minUs;
    private final double maxUs;
    private final double typicalUs;
    private final double avgUs;
    private final double stdevUs;
    private final double p99Us;
    private final double p999Us;
    private final Histogram histogram;

    private LatencyStats(int samples, double minUs, double maxUs, double typicalUs, double avgUs, double stdevUs,
                         double p99Us, double p999Us, Histogram histogram) {
        this.samples = samples;
        this.minUs = minUs;
        this.maxUs = maxUs;
        this.typicalUs = typicalUs;
        this.avgUs = avgUs;
        this.stdevUs = stdevUs;
        this.p99Us = p99Us;
        this.p999Us = p999Us;
        this.histogram = histogram;
    }

    /**
     * Computes the figures from the first {@code count} entries of {@code tNanos}, one timestamp per
     * iteration in nanoseconds (any common origin).
     *
     * @throws IllegalArgumentException when fewer than 4 timestamps are given (at least one sample must
     *     remain after dropping two), {@code count} exceeds the array, or the timestamps go backwards
     */
    public static LatencyStats fromTimestamps(long[] tNanos, int count) {
        return fromTimestamps(tNanos, count, 2);
    }

    /**
     * As {@link #fromTimestamps(long[], int)}, each sample divided by {@code rttFactor}: perftest's 2 for
     * the ping-pong tests (half round trips), 1 for READ latency (whole round trips).
     */
    public static LatencyStats fromTimestamps(long[] tNanos, int count, int rttFactor) {
        if (rttFactor != 1 && rttFactor != 2) {
            throw new IllegalArgumentException("the round-trip factor is 1 or 2, not " + rttFactor);
        }
        if (count < DROPPED_TAIL + 2 || count > tNanos.length) {
            throw new IllegalArgumentException("need between " + (DROPPED_TAIL + 2) + " and " + tNanos.length
                    + " timestamps (got count " + count + ")");
        }
        int measured = count - 1;
        long[] delta = new long[measured];
        for (int i = 0; i < measured; i++) {
            delta[i] = tNanos[i + 1] - tNanos[i];
            if (delta[i] < 0) {
                throw new IllegalArgumentException("timestamp " + (i + 1) + " is earlier than timestamp " + i);
            }
        }
        Arrays.sort(delta);
        Histogram histogram = new Histogram(Math.max(2, delta[measured - 1] / rttFactor), SIGNIFICANT_DIGITS);
        for (long d : delta) {
            histogram.recordValue(d / rttFactor);
        }
        double toUs = 1000.0 * rttFactor;
        int n = measured - DROPPED_TAIL;
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / toUs;
        }
        double avg = sum / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            double diff = avg - delta[i] / toUs;
            squares += diff * diff;
        }
        double median = (n - 1) % 2 != 0
                ? (delta[n / 2] / toUs + delta[n / 2 - 1] / toUs) / 2
                : delta[n / 2] / toUs;
        return new LatencyStats(n, delta[0] / toUs, delta[n] / toUs, median, avg, Math.sqrt(squares / n),
                delta[(int) Math.ceil(n * 0.99)] / toUs, delta[(int) Math.ceil(n * 0.999)] / toUs,
                histogram);
    }

    /** The figures as a result row. */
    public LatencyResult toResult(long sizeBytes, long iterations) {
        return new LatencyResult(sizeBytes, iterations, minUs, maxUs, typicalUs, avgUs, stdevUs, p99Us, p999Us);
    }

    /** Kept samples (after dropping the 2 largest). */
    public int samples() {
        return samples;
    }

    public double minUs() {
        return minUs;
    }

    /** perftest's t_max: the second largest sample. */
    public double maxUs() {
        return maxUs;
    }

    public double typicalUs() {
        return typicalUs;
    }

    public double avgUs() {
        return avgUs;
    }

    public double stdevUs() {
        return stdevUs;
    }

    public double p99Us() {
        return p99Us;
    }

    public double p999Us() {
        return p999Us;
    }

    /**
     * A copy of the histogram of every half round trip in nanoseconds, including the 2 dropped samples
     * (an {@code .hlog} should show the whole tail), at {@value #SIGNIFICANT_DIGITS} significant digits.
     */
    public Histogram histogram() {
        return histogram.copy();
    }
}
