package io.jperf.matrix;

import java.util.Locale;

/**
 * Where a matrix point becomes a bad link: an absolute value in the metric's unit ({@code 80} Gb/s,
 * {@code 5} us) or a factor of the matrix median ({@code 0.8xmedian}). A bandwidth below it is bad
 * ({@code --fail-below}), a latency above it ({@code --fail-above}). Immutable.
 *
 * @param value    the absolute limit, or the factor
 * @param relative true when {@code value} multiplies the median
 */
public record Threshold(double value, boolean relative) {
    private static final String MEDIAN = "xmedian";

    public Threshold {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("a threshold must be a positive number (got " + value + ")");
        }
    }

    /**
     * Parses {@code 80}, {@code 12.5} or {@code 0.8xmedian}.
     *
     * @throws IllegalArgumentException naming the text and the forms accepted
     */
    public static Threshold parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        boolean relative = t.endsWith(MEDIAN);
        String number = relative ? t.substring(0, t.length() - MEDIAN.length()) : t;
        try {
            return new Threshold(Double.parseDouble(number), relative);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a threshold: a positive number in the test's unit"
                    + " (Gb/s or us) such as 80, or a factor of the matrix median such as 0.8xmedian");
        }
    }

    /** The absolute limit, given the matrix median (NaN when relative and no point succeeded). */
    public double limit(double median) {
        return relative ? value * median : value;
    }

    /** As the user wrote it: {@code 0.8xmedian} or {@code 80}. */
    @Override
    public String toString() {
        String v = value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
        return relative ? v + MEDIAN : v;
    }
}
