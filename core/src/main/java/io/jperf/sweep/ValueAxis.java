package io.jperf.sweep;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A value axis of the report's charts: linear from 0 with nice ticks, or logarithmic (base 10)
 * when the figures span a decade or more ({@link #DECADE_RATIO}), so that a 2 B choice's 0.1 Gb/s
 * and a 64 KiB choice's 90 Gb/s are both readable. Log ticks are the powers of ten, with 2 and 5
 * times them when the axis covers at most {@value #DENSE_DECADES} decades. Immutable.
 */
final class ValueAxis {

    /** The largest figure must be at least this many times the smallest (positive) one for a log axis. */
    static final double DECADE_RATIO = 10;
    /** A log axis over at most this many decades also gets ticks at 2x and 5x. */
    static final int DENSE_DECADES = 2;

    private final boolean log;
    private final double lo;
    private final double hi;
    private final double[] ticks;

    private ValueAxis(boolean log, double lo, double hi, double[] ticks) {
        this.log = log;
        this.lo = lo;
        this.hi = hi;
        this.ticks = ticks;
    }

    /**
     * The axis for {@code values} (non-finite ones ignored): log when every value is positive and
     * the largest is at least {@link #DECADE_RATIO} times the smallest, else linear from 0 to a nice
     * maximum (0..1 with nothing to show).
     */
    static ValueAxis fit(List<Double> values) {
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        boolean allPositive = true;
        int n = 0;
        for (double v : values) {
            if (!Double.isFinite(v)) {
                continue;
            }
            n++;
            allPositive &= v > 0;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        if (n >= 2 && allPositive && max / min >= DECADE_RATIO) {
            return log(min, max);
        }
        double[] t = SvgCharts.niceTicks(max, 5);
        return new ValueAxis(false, 0, t[t.length - 1], t);
    }

    private static ValueAxis log(double min, double max) {
        int e0 = (int) Math.floor(Math.log10(min) + 1e-9);
        int e1 = (int) Math.ceil(Math.log10(max) - 1e-9);
        if (e1 == e0) {
            e1++;
        }
        boolean dense = e1 - e0 <= DENSE_DECADES;
        List<Double> t = new ArrayList<>();
        for (int e = e0; e <= e1; e++) {
            double p = Math.pow(10, e);
            t.add(p);
            if (dense && e < e1) {
                t.add(2 * p);
                t.add(5 * p);
            }
        }
        return new ValueAxis(true, Math.pow(10, e0), Math.pow(10, e1), t.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** True for a log axis. */
    boolean log() {
        return log;
    }

    /** Where {@code v} lies on the axis, 0 at its start and 1 at its end, clamped to that range. */
    double fraction(double v) {
        double f;
        if (log) {
            f = v <= 0 ? 0 : (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo));
        } else {
            f = hi > 0 ? Math.max(0, v) / hi : 0;
        }
        return Double.isFinite(f) ? Math.max(0, Math.min(1, f)) : 0;
    }

    /** The tick values, ascending. */
    double[] ticks() {
        return ticks.clone();
    }

    /** A tick's label: {@code 0}, {@code 2.5}, {@code 0.01}, {@code 100}, {@code 10k}. */
    String label(double t) {
        if (!log) {
            return SvgCharts.tickLabel(t, ticks);
        }
        if (t >= 1e4) {
            return plain(t / 1000) + "k";
        }
        return plain(t);
    }

    /** The caption's suffix: {@code  (log scale)} or nothing. */
    String captionSuffix() {
        return log ? " (log scale)" : "";
    }

    private static String plain(double v) {
        return new BigDecimal(String.format(Locale.ROOT, "%.6g", v)).stripTrailingZeros().toPlainString();
    }
}
