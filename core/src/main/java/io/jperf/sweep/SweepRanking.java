package io.jperf.sweep;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Whether a sweep may call one choice best and another worst, and which: the one rule the text,
 * JSON and HTML reports share.
 *
 * <p>The candidates are the choices that ran at {@link SweepResult#rankedSize()} (figures at
 * other message sizes are not compared). The gap is how far the worst candidate's headline is from
 * the best one's, relative to the best: for bandwidth {@code (best - worst) / best}, for latency
 * {@code (worst - best) / best}. A sweep runs each choice once, so it has no measure of its own
 * run-to-run noise; the gap therefore counts only when it exceeds a stated threshold
 * ({@link #ONE_RUN_NOISE}, 20 %): below it the choices are {@link Status#WITHIN_NOISE} and
 * none is called best or worst. Two candidates or more are needed, with different headlines.
 *
 * <p>Immutable and thread-safe.
 *
 * @param status     ranked, within noise, or not ranked (fewer than two candidates)
 * @param best       the best candidate when {@link Status#RANKED}
 * @param worst      the worst candidate when {@link Status#RANKED}
 * @param size       the message size the candidates ran at, if any ran
 * @param candidates how many choices were compared
 * @param gap        the relative gap between the best and worst candidate (0.11 = 11 %); 0 when
 *                   fewer than two were compared
 * @param threshold  the noise threshold the gap was held against (0.20 = 20 %)
 * @param higherIsBetter true for bandwidth, false for latency
 */
public record SweepRanking(Status status, Optional<SweepRow> best, Optional<SweepRow> worst, OptionalLong size,
                           int candidates, double gap, double threshold, boolean higherIsBetter) {

    /**
     * The gap a single run per choice must exceed before a choice is called best or worst: 20 %.
     * One run cannot tell a smaller difference from noise (in jperf's soft-RoCE lab the runs of one
     * choice spread far more than that; on hardware a few per cent is common, and a gap from one
     * run each still needs a repeat to be believed).
     */
    public static final double ONE_RUN_NOISE = 0.20;

    /** What the comparison concluded. */
    public enum Status {
        /** The gap exceeds the threshold: best and worst are named. */
        RANKED,
        /** Two or more candidates, but the gap is within the threshold: none is named. */
        WITHIN_NOISE,
        /** Fewer than two candidates ran at one size, or all had the same headline. */
        NOT_RANKED
    }

    public SweepRanking {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(best, "best");
        Objects.requireNonNull(worst, "worst");
        Objects.requireNonNull(size, "size");
        if ((status == Status.RANKED) != (best.isPresent() && worst.isPresent())) {
            throw new IllegalArgumentException("best and worst are named exactly when ranked");
        }
    }

    /** {@code result}'s ranking with the {@link #ONE_RUN_NOISE} threshold. */
    public static SweepRanking of(SweepResult result) {
        return of(result, ONE_RUN_NOISE);
    }

    /**
     * {@code result}'s ranking: best and worst only when their relative gap is above {@code threshold}.
     *
     * @throws IllegalArgumentException if {@code threshold} is negative or not finite
     */
    public static SweepRanking of(SweepResult result, double threshold) {
        if (!(threshold >= 0) || !Double.isFinite(threshold)) {
            throw new IllegalArgumentException("noise threshold must be a finite fraction >= 0, got " + threshold);
        }
        boolean higher = result.higherIsBetter();
        OptionalLong size = result.rankedSize();
        if (size.isEmpty()) {
            return new SweepRanking(Status.NOT_RANKED, Optional.empty(), Optional.empty(), size, 0, 0, threshold, higher);
        }
        List<SweepRow> rows = result.rows().stream().filter(SweepRow::ok)
                .filter(r -> r.headlineSize().orElseThrow() == size.getAsLong()).toList();
        SweepRow top = rows.getFirst();
        SweepRow bottom = rows.getFirst();
        for (SweepRow r : rows) {
            double v = r.headline().orElseThrow();
            if (higher ? v > top.headline().orElseThrow() : v < top.headline().orElseThrow()) {
                top = r;
            }
            if (higher ? v < bottom.headline().orElseThrow() : v > bottom.headline().orElseThrow()) {
                bottom = r;
            }
        }
        double b = top.headline().orElseThrow();
        double w = bottom.headline().orElseThrow();
        if (rows.size() < 2 || b == w) {
            return new SweepRanking(Status.NOT_RANKED, Optional.empty(), Optional.empty(), size, rows.size(), 0,
                    threshold, higher);
        }
        double gap = b == 0 ? Double.POSITIVE_INFINITY : Math.abs(b - w) / Math.abs(b);
        if (gap > threshold) {
            return new SweepRanking(Status.RANKED, Optional.of(top), Optional.of(bottom), size, rows.size(), gap,
                    threshold, higher);
        }
        return new SweepRanking(Status.WITHIN_NOISE, Optional.empty(), Optional.empty(), size, rows.size(), gap,
                threshold, higher);
    }

    /** The rule in one sentence, as the reports state it. */
    public String rule() {
        return String.format(Locale.ROOT, "Each choice ran once, so best and worst are named only when the worst "
                + "choice's figure is more than %s %s the best one's at the same message size; a smaller gap is "
                + "within the noise of one run (run the sweep again to tell such choices apart).",
                percent(threshold), higherIsBetter ? "below" : "above");
    }

    /**
     * One line on the outcome, e.g. {@code not ranked: one run each, within noise (the 3 choices at
     * 64K are within 11 % of each other; threshold 20 %)}.
     */
    public String summary() {
        String at = size.isPresent() ? " at " + HtmlText.size(size.getAsLong()) : "";
        return switch (status) {
            case RANKED -> "ranked: the worst of the " + candidates + " choices" + at + " is " + percent(gap) + " "
                    + (higherIsBetter ? "below" : "above") + " the best, beyond the " + percent(threshold)
                    + " noise threshold of one run each";
            case WITHIN_NOISE -> "not ranked: one run each, within noise (the " + candidates + " choices" + at
                    + " are within " + percent(gap) + " of each other; threshold " + percent(threshold) + ")";
            case NOT_RANKED -> candidates < 2
                    ? "not ranked: fewer than two choices ran" + (size.isPresent() ? " at " + HtmlText.size(size.getAsLong()) : "")
                    : "not ranked: the " + candidates + " choices" + at + " have the same figure";
        };
    }

    /** {@code 11 %}, {@code 0.5 %}. */
    static String percent(double fraction) {
        if (Double.isInfinite(fraction)) {
            return "100 %";
        }
        double p = fraction * 100;
        return (p >= 1 || p == 0 ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p)) + " %";
    }
}
