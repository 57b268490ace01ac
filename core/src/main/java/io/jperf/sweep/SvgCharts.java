package io.jperf.sweep;

import static io.jperf.sweep.HtmlText.coord;
import static io.jperf.sweep.HtmlText.esc;
import static io.jperf.sweep.HtmlText.num;
import static io.jperf.sweep.HtmlText.truncate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.function.DoubleUnaryOperator;
import java.util.function.LongToDoubleFunction;

/**
 * The two kinds of inline SVG chart of the sweep's HTML report: a horizontal bar chart of one figure
 * per choice, and a line chart of a figure against the message size (log2 axis). Value axes are
 * {@link ValueAxis}: linear, or log where the figures span decades. Markup is
 * XML-compatible; every text is escaped. Stateless and thread-safe.
 */
final class SvgCharts {

    /** Chart width in CSS pixels; the report's page is laid out for it. */
    static final int WIDTH = 1000;
    /** Characters of a choice label shown next to its bar (the table has the full label). */
    static final int BAR_LABEL_CHARS = 42;
    /** Characters of a series label shown in the line chart's legend. */
    static final int LEGEND_LABEL_CHARS = 34;

    static final String BAR = "#4a7ab8";
    static final String BEST = "#1e8a4c";
    static final String WORST = "#c0392b";
    static final String WARN = "#d9822b";
    static final String WARN_TEXT = "#a65400";
    static final String FAIL_TEXT = "#8b1a1a";

    /** Line colours; no green, red or orange, which mean best, worst and inconsistent. */
    private static final String[] PALETTE = {"#1f77b4", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#393b79", "#5254a3", "#637939"};
    private static final String FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, "
            + "'DejaVu Sans', sans-serif\"";

    private SvgCharts() {
    }

    /**
     * One bar of the bar chart.
     *
     * @param index        the row's index in the sweep (written as {@code data-index})
     * @param label        the full choice label
     * @param value        the figure; empty for a failed choice
     * @param failure      for a failed choice, a short form of its error
     * @param best         the best choice
     * @param worst        the worst choice
     * @param inconsistent the path has a WARNING or ERROR verdict
     * @param verdictIds   the ids of its WARNING/ERROR verdicts, e.g. {@code F2 F3}
     */
    record Bar(int index, String label, OptionalDouble value, String failure, boolean best, boolean worst,
               boolean inconsistent, String verdictIds) {
        Bar {
            Objects.requireNonNull(label, "label");
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(failure, "failure");
            Objects.requireNonNull(verdictIds, "verdictIds");
        }
    }

    /** One point of a line: the figure at one message size; {@code title} is its tooltip. */
    record Point(long size, double value, String title) {
    }

    /**
     * One line of the size chart: choices that differ only in message size.
     *
     * @param label        the common dimension values
     * @param points       the measured points, any order
     * @param failedSizes  sizes at which a choice of this group failed
     * @param inconsistent whether any choice of the group has an inconsistent path (drawn dashed)
     */
    record Series(String label, List<Point> points, List<Long> failedSizes, boolean inconsistent) {
        Series {
            points = List.copyOf(points);
            failedSizes = List.copyOf(failedSizes);
        }
    }

    // ------------------------------------------------------------------ bar chart

    /**
     * A horizontal bar chart, one bar per choice in sweep order: bar length proportional to the
     * value on a {@link ValueAxis} (linear from 0 to a nice maximum, or log when the values span a
     * decade or more; the caption says which), best bar green, worst red, inconsistent bars hatched
     * and outlined in the warning colour, failed choices an empty dashed slot saying "failed".
     *
     * @param id             the SVG element's id, e.g. {@code bar-chart}
     * @param unit           the value's unit, e.g. {@code Gb/s}
     * @param higherIsBetter how the axis caption reads
     */
    static String barChart(String id, List<Bar> bars, String unit, boolean higherIsBetter) {
        final int labelW = 310;
        final int plotX = labelW;
        final int plotW = 450;
        final int top = 8;
        final int rowH = 28;
        final int barH = 18;
        int n = Math.max(bars.size(), 1);
        int plotH = n * rowH;
        int height = top + plotH + 46;
        ValueAxis axis = ValueAxis.fit(bars.stream().map(Bar::value).filter(OptionalDouble::isPresent)
                .map(OptionalDouble::getAsDouble).toList());
        double[] ticks = axis.ticks();
        String hatch = hatchId(id);

        StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart bar-chart").append(axis.log() ? " log" : "")
                .append("\" id=\"").append(esc(id)).append("\" width=\"")
                .append(WIDTH).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH)
                .append(' ').append(height).append("\" role=\"img\" ").append(FONT).append(" font-size=\"12\">\n");
        s.append("<title>").append(esc("Per choice, " + unit + axis.captionSuffix())).append("</title>\n");
        s.append(hatchDefs(hatch));
        // grid and axis
        s.append("<g class=\"axis\" stroke=\"#d0d4da\" stroke-width=\"1\">\n");
        for (double t : ticks) {
            double x = plotX + axis.fraction(t) * plotW;
            s.append("<line x1=\"").append(coord(x)).append("\" y1=\"").append(top).append("\" x2=\"")
                    .append(coord(x)).append("\" y2=\"").append(top + plotH).append("\"/>\n");
        }
        s.append("<line x1=\"").append(plotX).append("\" y1=\"").append(top + plotH).append("\" x2=\"")
                .append(plotX + plotW).append("\" y2=\"").append(top + plotH).append("\" stroke=\"#7a8089\"/>\n");
        s.append("</g>\n<g class=\"ticks\" fill=\"#444\" text-anchor=\"middle\">\n");
        for (double t : ticks) {
            double x = plotX + axis.fraction(t) * plotW;
            s.append("<text x=\"").append(coord(x)).append("\" y=\"").append(top + plotH + 16).append("\">")
                    .append(esc(axis.label(t))).append("</text>\n");
        }
        s.append("<text x=\"").append(plotX + plotW / 2).append("\" y=\"").append(top + plotH + 36)
                .append("\" fill=\"#222\">")
                .append(esc(unit + axis.captionSuffix()
                        + (higherIsBetter ? " \u2014 longer is better" : " \u2014 shorter is better")))
                .append("</text>\n</g>\n");

        if (bars.isEmpty()) {
            s.append("<text x=\"").append(plotX + 8).append("\" y=\"").append(top + rowH / 2 + 4)
                    .append("\" fill=\"").append(FAIL_TEXT).append("\">no choice in this sweep</text>\n");
        }
        int i = 0;
        for (Bar b : bars) {
            double y = top + i * rowH + (rowH - barH) / 2.0;
            double textY = y + barH / 2.0 + 4;
            String cls = b.value().isEmpty() ? "failed"
                    : (b.best() ? "best" : b.worst() ? "worst" : "normal") + (b.inconsistent() ? " inconsistent" : "");
            s.append("<g class=\"row ").append(cls).append("\" data-index=\"").append(b.index()).append("\">\n");
            s.append("<title>").append(esc(b.label())).append("</title>\n");
            s.append("<text class=\"label\" x=\"").append(labelW - 8).append("\" y=\"").append(coord(textY))
                    .append("\" text-anchor=\"end\" fill=\"#222\"")
                    .append(b.best() || b.worst() ? " font-weight=\"bold\"" : "").append('>')
                    .append(esc(truncate(b.label(), BAR_LABEL_CHARS))).append("</text>\n");
            if (b.value().isEmpty()) {
                s.append("<rect class=\"slot failed\" data-index=\"").append(b.index()).append("\" x=\"").append(plotX)
                        .append("\" y=\"").append(coord(y)).append("\" width=\"").append(plotW).append("\" height=\"")
                        .append(barH).append("\" fill=\"#f6f6f6\" stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"/>\n");
                s.append("<text class=\"failed\" x=\"").append(plotX + 8).append("\" y=\"").append(coord(textY))
                        .append("\" fill=\"").append(FAIL_TEXT).append("\" font-weight=\"bold\">failed")
                        .append("<tspan font-weight=\"normal\">")
                        .append(esc(b.failure().isEmpty() ? "" : ": " + truncate(b.failure(), 52)))
                        .append("</tspan></text>\n");
            } else {
                double v = b.value().getAsDouble();
                double w = axis.fraction(v) * plotW;
                String fill = b.best() ? BEST : b.worst() ? WORST : BAR;
                s.append("<rect class=\"bar ").append(cls).append("\" data-index=\"").append(b.index())
                        .append("\" data-value=\"").append(v).append("\" x=\"").append(plotX).append("\" y=\"")
                        .append(coord(y)).append("\" width=\"").append(coord(w)).append("\" height=\"").append(barH)
                        .append("\" fill=\"").append(fill).append("\"/>\n");
                if (b.inconsistent()) {
                    s.append("<rect class=\"hatch\" x=\"").append(plotX).append("\" y=\"").append(coord(y))
                            .append("\" width=\"").append(coord(Math.max(w, 3))).append("\" height=\"").append(barH)
                            .append("\" fill=\"url(#").append(hatch).append(")\" stroke=\"").append(WARN)
                            .append("\" stroke-width=\"2.5\"/>\n");
                }
                s.append("<text class=\"value\" x=\"").append(coord(plotX + Math.max(w, 3) + 7)).append("\" y=\"")
                        .append(coord(textY)).append("\" fill=\"#222\">").append(esc(num(v) + " " + unit));
                if (b.best()) {
                    s.append("<tspan class=\"marker\" dx=\"8\" fill=\"").append(BEST)
                            .append("\" font-weight=\"bold\">best</tspan>");
                }
                if (b.worst()) {
                    s.append("<tspan class=\"marker\" dx=\"8\" fill=\"").append(WORST)
                            .append("\" font-weight=\"bold\">worst</tspan>");
                }
                if (b.inconsistent()) {
                    s.append("<tspan class=\"flag\" dx=\"8\" fill=\"").append(WARN_TEXT)
                            .append("\" font-weight=\"bold\">").append(esc("\u26a0 " + b.verdictIds())).append("</tspan>");
                }
                s.append("</text>\n");
            }
            s.append("</g>\n");
            i++;
        }
        return s.append("</svg>\n").toString();
    }

    /** The id of a bar chart's hatch pattern: {@code hatch} for the {@code bar-chart}, unique for others. */
    static String hatchId(String chartId) {
        return "bar-chart".equals(chartId) ? "hatch" : "hatch-" + chartId;
    }

    /** The diagonal hatch pattern of inconsistent bars, in the warning colour, as {@code id}. */
    static String hatchDefs(String id) {
        return "<defs><pattern id=\"" + id + "\" width=\"7\" height=\"7\" patternUnits=\"userSpaceOnUse\" "
                + "patternTransform=\"rotate(45)\"><rect width=\"7\" height=\"7\" fill=\"#ffffff\" fill-opacity=\"0.25\"/>"
                + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"7\" stroke=\"" + WARN + "\" stroke-width=\"2.5\"/>"
                + "</pattern></defs>\n";
    }

    // ------------------------------------------------------------------ line chart

    /**
     * A line chart of a figure against the message size: log2 x axis labelled 2, 64, 4K, 64K, 1M;
     * a {@link ValueAxis} for y (linear from 0, or log when the figures span a decade or more; the
     * caption says which); one coloured line per series with a legend; failed points as crosses on
     * the x axis.
     *
     * @param id       the SVG element's id, e.g. {@code size-chart}
     * @param yCaption the y axis caption, e.g. {@code Gb/s (average)}
     */
    static String lineChart(String id, List<Series> series, String yCaption) {
        final int plotX = 72;
        final int legendX = 730;
        final int plotW = legendX - 30 - plotX;
        final int top = 16;
        final int plotH = 300;
        final int legendRow = 19;
        int legendH = series.size() * legendRow + 3 * legendRow;
        int height = Math.max(top + plotH + 52, top + legendH + 8);

        TreeSet<Long> sizes = new TreeSet<>();
        List<Double> values = new ArrayList<>();
        for (Series se : series) {
            for (Point p : se.points()) {
                sizes.add(p.size());
                values.add(p.value());
            }
            sizes.addAll(se.failedSizes());
        }
        ValueAxis axis = ValueAxis.fit(values);
        double[] ticks = axis.ticks();
        String caption = yCaption + axis.captionSuffix();
        double lx0 = log2(sizes.isEmpty() ? 1 : sizes.first());
        double lx1 = log2(sizes.isEmpty() ? 2 : sizes.last());
        final double pad = 16;
        double span = lx1 > lx0 ? lx1 - lx0 : 1;
        LongToDoubleFunction xOf =
                size -> plotX + pad + (log2(size) - lx0) / span * (plotW - 2 * pad);
        DoubleUnaryOperator yOf = v -> top + plotH - axis.fraction(v) * plotH;

        StringBuilder s = new StringBuilder(4096);
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart size-chart").append(axis.log() ? " log" : "")
                .append("\" id=\"").append(esc(id)).append("\" width=\"")
                .append(WIDTH).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(WIDTH)
                .append(' ').append(height).append("\" role=\"img\" ").append(FONT).append(" font-size=\"12\">\n");
        s.append("<title>").append(esc(caption + " vs message size")).append("</title>\n");
        // y grid and ticks
        s.append("<g class=\"axis\" stroke=\"#d0d4da\" stroke-width=\"1\">\n");
        for (double t : ticks) {
            double y = yOf.applyAsDouble(t);
            s.append("<line x1=\"").append(plotX).append("\" y1=\"").append(coord(y)).append("\" x2=\"")
                    .append(plotX + plotW).append("\" y2=\"").append(coord(y)).append("\"/>\n");
        }
        s.append("<line x1=\"").append(plotX).append("\" y1=\"").append(top).append("\" x2=\"").append(plotX)
                .append("\" y2=\"").append(top + plotH).append("\" stroke=\"#7a8089\"/>\n");
        s.append("<line x1=\"").append(plotX).append("\" y1=\"").append(top + plotH).append("\" x2=\"")
                .append(plotX + plotW).append("\" y2=\"").append(top + plotH).append("\" stroke=\"#7a8089\"/>\n");
        s.append("</g>\n<g class=\"ticks\" fill=\"#444\">\n");
        for (double t : ticks) {
            s.append("<text x=\"").append(plotX - 6).append("\" y=\"").append(coord(yOf.applyAsDouble(t) + 4))
                    .append("\" text-anchor=\"end\" class=\"ytick\">").append(esc(axis.label(t))).append("</text>\n");
        }
        // x ticks: every size, or every k-th when they would crowd
        List<Long> xs = new ArrayList<>(sizes);
        double gap = plotW;
        for (int k = 1; k < xs.size(); k++) {
            gap = Math.min(gap, xOf.applyAsDouble(xs.get(k)) - xOf.applyAsDouble(xs.get(k - 1)));
        }
        int stride = 1;
        while (stride < xs.size() && gap * stride < 34) {
            stride++;
        }
        for (int k = 0; k < xs.size(); k++) {
            double x = xOf.applyAsDouble(xs.get(k));
            boolean labelled = k % stride == 0;
            s.append("<line x1=\"").append(coord(x)).append("\" y1=\"").append(top + plotH).append("\" x2=\"")
                    .append(coord(x)).append("\" y2=\"").append(top + plotH + (labelled ? 5 : 3))
                    .append("\" stroke=\"#7a8089\"/>\n");
            if (labelled) {
                s.append("<text class=\"xtick\" x=\"").append(coord(x)).append("\" y=\"").append(top + plotH + 18)
                        .append("\" text-anchor=\"middle\">").append(esc(HtmlText.size(xs.get(k)))).append("</text>\n");
            }
        }
        s.append("<text x=\"").append(plotX + plotW / 2).append("\" y=\"").append(top + plotH + 40)
                .append("\" text-anchor=\"middle\" fill=\"#222\">message size (bytes, log2 scale)</text>\n");
        s.append("<text transform=\"translate(16,").append(top + plotH / 2).append(") rotate(-90)\" ")
                .append("text-anchor=\"middle\" fill=\"#222\">").append(esc(caption)).append("</text>\n");
        s.append("</g>\n");

        // lines
        for (int k = 0; k < series.size(); k++) {
            Series se = series.get(k);
            String colour = PALETTE[k % PALETTE.length];
            List<Point> pts = new ArrayList<>(se.points());
            pts.sort(Comparator.comparingLong(Point::size));
            s.append("<g class=\"series").append(se.inconsistent() ? " inconsistent" : "").append("\" data-series=\"")
                    .append(k).append("\">\n");
            s.append("<title>").append(esc(se.label())).append("</title>\n");
            if (pts.size() > 1) {
                StringBuilder poly = new StringBuilder();
                for (Point p : pts) {
                    poly.append(coord(xOf.applyAsDouble(p.size()))).append(',')
                            .append(coord(yOf.applyAsDouble(p.value()))).append(' ');
                }
                s.append("<polyline points=\"").append(poly.toString().trim()).append("\" fill=\"none\" stroke=\"")
                        .append(colour).append("\" stroke-width=\"2.2\"")
                        .append(se.inconsistent() ? " stroke-dasharray=\"7 4\"" : "").append("/>\n");
            }
            for (Point p : pts) {
                s.append("<circle cx=\"").append(coord(xOf.applyAsDouble(p.size()))).append("\" cy=\"")
                        .append(coord(yOf.applyAsDouble(p.value()))).append("\" r=\"3.5\" fill=\"").append(colour)
                        .append("\"><title>").append(esc(p.title())).append("</title></circle>\n");
            }
            for (long f : se.failedSizes()) {
                double x = xOf.applyAsDouble(f);
                double y = top + plotH - 8 - 7 * (k % 3);
                s.append("<path class=\"failed-point\" d=\"M").append(coord(x - 4)).append(',').append(coord(y - 4))
                        .append(" l8,8 m0,-8 l-8,8\" stroke=\"").append(colour)
                        .append("\" stroke-width=\"2\"><title>").append(esc(se.label() + " size " + HtmlText.size(f)
                                + ": failed")).append("</title></path>\n");
            }
            s.append("</g>\n");
        }

        // legend
        s.append("<g class=\"legend\">\n");
        int y = top + 6;
        for (int k = 0; k < series.size(); k++) {
            Series se = series.get(k);
            String colour = PALETTE[k % PALETTE.length];
            s.append("<g class=\"legend-entry\"><title>").append(esc(se.label())).append("</title>");
            s.append("<line x1=\"").append(legendX).append("\" y1=\"").append(y).append("\" x2=\"").append(legendX + 26)
                    .append("\" y2=\"").append(y).append("\" stroke=\"").append(colour).append("\" stroke-width=\"2.2\"")
                    .append(se.inconsistent() ? " stroke-dasharray=\"7 4\"" : "").append("/>");
            s.append("<circle cx=\"").append(legendX + 13).append("\" cy=\"").append(y).append("\" r=\"3.5\" fill=\"")
                    .append(colour).append("\"/>");
            s.append("<text x=\"").append(legendX + 34).append("\" y=\"").append(y + 4).append("\" fill=\"")
                    .append(se.inconsistent() ? WARN_TEXT : "#222").append("\">")
                    .append(esc(truncate(se.label(), LEGEND_LABEL_CHARS))).append("</text></g>\n");
            y += legendRow;
        }
        y += 6;
        s.append("<text x=\"").append(legendX).append("\" y=\"").append(y + 4)
                .append("\" fill=\"#555\" font-size=\"11\">dashed: inconsistent path</text>\n");
        s.append("<text x=\"").append(legendX).append("\" y=\"").append(y + 4 + legendRow)
                .append("\" fill=\"#555\" font-size=\"11\">\u00d7 on the axis: failed</text>\n");
        s.append("</g>\n");
        return s.append("</svg>\n").toString();
    }

    private static double log2(long v) {
        return Math.log(Math.max(v, 1)) / Math.log(2);
    }

    // ------------------------------------------------------------------ axis

    /**
     * Axis ticks from 0 to a "nice" maximum at or above {@code max}: steps of 1, 2, 2.5 or 5 times a
     * power of ten, about {@code target} of them. {@code max <= 0} (or not finite) gives 0..1.
     */
    static double[] niceTicks(double max, int target) {
        if (!(max > 0) || !Double.isFinite(max)) {
            max = 1;
        }
        double rough = max / Math.max(1, target);
        double mag = Math.pow(10, Math.floor(Math.log10(rough)));
        double norm = rough / mag;
        double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
        int count = (int) Math.ceil(max / step - 1e-9);
        double[] ticks = new double[count + 1];
        for (int i = 0; i <= count; i++) {
            ticks[i] = i * step;
        }
        return ticks;
    }

    /** A tick's label with at most the decimals the step needs, no trailing zeros (0, 2.5, 10, 0.05). */
    static String tickLabel(double t, double[] ticks) {
        double step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
        int decimals = 0;
        while (decimals < 6 && Math.abs(step * Math.pow(10, decimals) - Math.rint(step * Math.pow(10, decimals))) > 1e-6) {
            decimals++;
        }
        String s = String.format(Locale.ROOT, "%." + decimals + "f", t);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
