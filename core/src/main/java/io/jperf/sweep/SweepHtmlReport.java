package io.jperf.sweep;

import static io.jperf.sweep.HtmlText.esc;
import static io.jperf.sweep.HtmlText.num;

import io.jperf.engine.PathReport;
import io.jperf.engine.PerfTestResult;
import io.jperf.path.PathSummary;
import io.jperf.path.Severity;
import io.jperf.path.Verdict;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeSet;

/**
 * A sweep as one self-contained HTML5 page: a header (kind, peer, dimensions, the base options every
 * choice shares, counts, time, jperf's version, the command line and the host), a bar chart of the
 * headline per choice, a chart of the figure against the message size when the sweep has several
 * sizes, the side-by-side table (one row per choice with its figures, verdicts, path and error) and
 * a legend that states the rules below. The best and worst choices and every inconsistent path are
 * highlighted; failed choices stay in the charts and the table with their error.
 *
 * <p>Rules: bandwidth choices at {@value #MESSAGE_RATE_MAX_SIZE} bytes or less are charted by
 * message rate (Mpps), larger ones by Gb/s, in separate charts; a value axis is logarithmic when its
 * figures span a decade or more ({@link ValueAxis}), linear from 0 otherwise; best and worst are
 * named only when {@link SweepRanking} ranks the choices (the gap exceeds the noise threshold of
 * one run each), else the page says they are not ranked and why.
 *
 * <p>No scripts and nothing external: the style and the SVG charts are inline, so the file can be
 * mailed, archived or attached to an issue as it is. The markup is also well-formed XML (XHTML
 * syntax), so tools and tests can parse it. Every text that comes from the system or the peer
 * (device names, addresses, errors, evidence) is escaped.
 *
 * <p>Stateless and thread-safe.
 */
public final class SweepHtmlReport {

    /** The dimension whose values are message sizes; the size chart draws one line per choice without it. */
    static final String SIZE_DIMENSION = "size";

    /**
     * Bandwidth choices at this message size or smaller are charted by their message rate (Mpps):
     * small messages are bound by the rate at which the NIC takes work requests, and perftest users
     * read MsgRate for them; their Gb/s would be an empty bar next to a large message's.
     */
    static final long MESSAGE_RATE_MAX_SIZE = 1024;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    /** One line per failure class, as the legend prints it (see {@code io.jperf.path.Verdicts}). */
    static final Map<String, String> FAILURE_CLASSES = orderedMap(
            "F1", "GID choice: RoCE v1 or link-local GID, GID types or kinds differ between the ends, "
                    + "or an end connects to an address that is not the other end's GID",
            "F2", "egress: the kernel routes out of another netdev than the GID's (multi-rail collapses onto one NIC); "
                    + "INFO when an unbound socket would pick another source address",
            "F3", "return path: the peer has no route back, or answers out of another netdev than its GID's",
            "F4", "MTU: active MTUs differ between the ends, or a netdev MTU is below the port's active MTU + 96",
            "F5", "QoS (with --qos): traffic class 0 or ECN bits Not-ECT",
            "F6", "state: port not ACTIVE, netdev down, no IPv4 on the RoCE netdev, or no GID with an IP address",
            "F7", "NUMA: the NIC and the test thread are on different NUMA nodes");

    private SweepHtmlReport() {
    }

    /** The report as one HTML5 document (XHTML syntax, UTF-8, ends with a newline), run info of this process. */
    public static String render(SweepResult result) {
        return render(result, RunInfo.embedded());
    }

    /** The report as one HTML5 document; {@code run} (version, command line, host) is among its facts. */
    public static String render(SweepResult result, RunInfo run) {
        return new Page(result, run).render();
    }

    private static Map<String, String> orderedMap(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }

    /** One rendering: the sweep and what is derived from it once. */
    private static final class Page {
        private final SweepResult r;
        private final List<SweepRow> rows;
        private final boolean bw;
        private final String unit;
        private final SweepRanking ranking;
        private final int bestIndex;
        private final int worstIndex;
        private final StringBuilder out = new StringBuilder(32 * 1024);
        private final RunInfo run;

        Page(SweepResult r, RunInfo run) {
            this.r = r;
            this.run = run;
            this.rows = r.rows();
            this.bw = r.kind().isBandwidth();
            this.unit = r.headlineUnit();
            this.ranking = r.ranking();
            this.bestIndex = ranking.best().map(this::position).orElse(-1);
            this.worstIndex = ranking.worst().map(this::position).orElse(-1);
        }

        private int position(SweepRow row) {
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i) == row) {
                    return i;
                }
            }
            return -1;
        }

        String render() {
            String kind = kindName();
            out.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                    .append("<meta charset=\"utf-8\"/>\n")
                    .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
                    .append("<meta name=\"generator\" content=\"jperf sweep\"/>\n")
                    .append("<title>").append(esc("jperf sweep " + kind + " against " + r.peerHost())).append("</title>\n")
                    .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
            header(kind);
            barSection();
            sizeSection();
            table();
            legend();
            out.append("<footer>Generated by jperf sweep. Self-contained: no scripts, no external resources.</footer>\n");
            out.append("</body>\n</html>\n");
            return out.toString();
        }

        private String kindName() {
            return r.kind().commandName();
        }

        // -------------------------------------------------------------- header

        private void header(String kind) {
            long ran = rows.stream().filter(SweepRow::ok).count();
            long failed = rows.size() - ran;
            long inconsistent = rows.stream().filter(row -> !row.consistent()).count();
            out.append("<header>\n<h1>jperf sweep: ").append(esc(kind)).append(" against <span class=\"mono\">")
                    .append(esc(r.peerHost())).append("</span></h1>\n");
            out.append("<p class=\"counts\">")
                    .append("<span class=\"pill\" id=\"count-choices\">").append(rows.size())
                    .append(rows.size() == 1 ? " choice" : " choices").append("</span>")
                    .append("<span class=\"pill ran\" id=\"count-ran\">").append(ran).append(" ran</span>")
                    .append("<span class=\"pill ").append(failed > 0 ? "failed" : "zero").append("\" id=\"count-failed\">")
                    .append(failed).append(" failed</span>")
                    .append("<span class=\"pill ").append(inconsistent > 0 ? "inconsistent" : "zero")
                    .append("\" id=\"count-inconsistent\">").append(inconsistent).append(" inconsistent</span>")
                    .append("</p>\n");
            out.append("<table class=\"facts\">\n");
            fact("kind", esc(kind + " (" + r.kind().perftestName() + ")"));
            fact("peer", "<span class=\"mono\">" + esc(r.peerHost()) + "</span>");
            fact("dimensions", dimensionsText());
            List<String> base = SweepBaseOptions.shared(rows.stream().map(row -> row.choice().options()).toList());
            fact("base options", base.isEmpty() ? "<span class=\"small\">none shared</span>"
                    : "<span class=\"mono\" id=\"base-options\">" + esc(String.join(" ", base)) + "</span>");
            fact("headline", esc(bw ? "average bandwidth in Gb/s at each choice's largest message size, higher is better"
                    : "t_typical (median half round trip) in us at each choice's smallest message size, lower is better")
                    + r.rankedSize().stream().mapToObj(size -> esc("; best and worst are ranked among the choices at "
                            + HtmlText.size(size))).findFirst().orElse("")
                    + (bw ? esc("; choices at " + HtmlText.size(MESSAGE_RATE_MAX_SIZE)
                            + " or less are charted by message rate (Mpps)") : ""));
            fact("ranking", "<span id=\"ranking\" class=\"ranking " + ranking.status().name().toLowerCase(Locale.ROOT)
                    .replace('_', '-') + "\">" + esc(ranking.summary()) + "</span>");
            if (bestIndex >= 0) {
                fact("best", "<span class=\"tag best\">best</span> " + esc(rows.get(bestIndex).choice().label()) + ": <b>"
                        + esc(num(rows.get(bestIndex).headline().getAsDouble()) + " " + unit) + "</b>");
                double w = rows.get(worstIndex).headline().getAsDouble();
                fact("worst", "<span class=\"tag worst\">worst</span> " + esc(rows.get(worstIndex).choice().label())
                        + ": <b>" + esc(num(w) + " " + unit) + "</b>" + esc(" (" + SweepRanking.percent(ranking.gap())
                        + (bw ? " below" : " above") + " the best)"));
            }
            fact("started", esc(TIME.format(r.started().truncatedTo(ChronoUnit.SECONDS))));
            fact("duration", esc(HtmlText.duration(r.elapsed())));
            fact("jperf", esc(run.jperfVersion()) + " on <span class=\"mono\">" + esc(run.host()) + "</span>");
            fact("command", "<span class=\"mono\">" + esc(run.commandLine()) + "</span>");
            out.append("</table>\n</header>\n");
        }

        private void fact(String name, String html) {
            out.append("<tr><th>").append(esc(name)).append("</th><td>").append(html).append("</td></tr>\n");
        }

        /** {@code rail (2): a, b; size (2): 4K, 64K}. */
        private String dimensionsText() {
            if (r.dimensions().isEmpty()) {
                return "none (one choice: the defaults)";
            }
            StringJoiner sj = new StringJoiner("<br/>");
            for (String d : r.dimensions()) {
                Set<String> values = new LinkedHashSet<>();
                rows.forEach(row -> values.add(row.choice().dimensions().getOrDefault(d, "")));
                sj.add("<b>" + esc(d) + "</b> (" + values.size() + "): <span class=\"mono\">"
                        + esc(String.join(", ", values)) + "</span>");
            }
            return sj.toString();
        }

        // -------------------------------------------------------------- charts

        private void barSection() {
            List<Integer> rateRows = new ArrayList<>();
            List<Integer> otherRows = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                (bw && small(rows.get(i)) ? rateRows : otherRows).add(i);
            }
            if (!rateRows.isEmpty()) {
                out.append("<section class=\"chart-box\" id=\"rate\">\n<h2>")
                        .append(esc("Message rate per choice (Mpps), messages up to " + HtmlText.size(MESSAGE_RATE_MAX_SIZE)))
                        .append("</h2>\n<p class=\"note\">").append(esc("Messages per second (millions) at the "
                                + "largest message size of each choice, perftest's MsgRate; higher is better. Small "
                                + "messages are bound by the message rate, so their Gb/s says little."))
                        .append("</p>\n");
                out.append("<div class=\"chart-wrap\">").append(SvgCharts.barChart("rate-chart", bars(rateRows, true),
                        "Mpps", true)).append("</div>\n</section>\n");
            }
            if (!otherRows.isEmpty() || rateRows.isEmpty()) {
                out.append("<section class=\"chart-box\" id=\"headline\">\n<h2>")
                        .append(esc((bw ? "Bandwidth" : "Latency") + " per choice (" + unit + ")"
                                + (rateRows.isEmpty() ? "" : ", messages over " + HtmlText.size(MESSAGE_RATE_MAX_SIZE))))
                        .append("</h2>\n");
                out.append("<p class=\"note\">").append(esc(bw
                        ? "Average bandwidth at the largest message size of each choice; higher is better."
                        : "t_typical at the smallest message size of each choice; lower is better.")).append("</p>\n");
                out.append("<div class=\"chart-wrap\">").append(SvgCharts.barChart("bar-chart", bars(otherRows, false),
                        unit, bw)).append("</div>\n");
                out.append("</section>\n");
            }
        }

        private List<SvgCharts.Bar> bars(List<Integer> indexes, boolean rate) {
            List<SvgCharts.Bar> bars = new ArrayList<>();
            for (int i : indexes) {
                SweepRow row = rows.get(i);
                bars.add(new SvgCharts.Bar(i, row.choice().label(), rate ? rate(row) : row.headline(),
                        row.error().map(SweepHtmlReport::firstLine).orElse(""), i == bestIndex, i == worstIndex,
                        !row.consistent(), problemIds(row)));
            }
            return bars;
        }

        /** A bandwidth row at {@link #MESSAGE_RATE_MAX_SIZE} or less: by its headline size, or for a failed row its option. */
        private static boolean small(SweepRow row) {
            OptionalLong size = row.ok() ? row.headlineSize()
                    : choiceSize(row).map(OptionalLong::of).orElse(OptionalLong.empty());
            return size.isPresent() && size.getAsLong() <= MESSAGE_RATE_MAX_SIZE;
        }

        /** The message rate (Mpps) at a bandwidth row's headline size; empty for a failed row. */
        private static OptionalDouble rate(SweepRow row) {
            return row.result().flatMap(res -> res.bandwidth().stream()
                            .max(Comparator.comparingLong(BandwidthResult::sizeBytes)))
                    .map(b -> OptionalDouble.of(b.messageRateMpps())).orElse(OptionalDouble.empty());
        }

        private void sizeSection() {
            TreeSet<Long> sizes = new TreeSet<>();
            for (SweepRow row : rows) {
                row.result().ifPresent(res -> points(res).forEach(p -> sizes.add(p.sizeBytes)));
            }
            if (sizes.size() < 2) {
                return;
            }
            out.append("<section class=\"chart-box\" id=\"by-size\">\n<h2>")
                    .append(esc((bw ? "Bandwidth" : "Latency") + " vs message size")).append("</h2>\n");
            out.append("<p class=\"note\">").append(esc("One line per group of choices that differ only in message size; "
                    + (bw ? "average Gb/s." : "t_typical in us."))).append("</p>\n");
            out.append("<div class=\"chart-wrap\">")
                    .append(SvgCharts.lineChart("size-chart", series(false), bw ? "Gb/s (average)" : "us (t_typical)"))
                    .append("</div>\n</section>\n");
            if (bw && sizes.first() <= MESSAGE_RATE_MAX_SIZE) {
                out.append("<section class=\"chart-box\" id=\"rate-by-size\">\n<h2>Message rate vs message size</h2>\n")
                        .append("<p class=\"note\">").append(esc("The same runs as message rate (Mpps, perftest's "
                                + "MsgRate), the figure to read for small messages."))
                        .append("</p>\n<div class=\"chart-wrap\">")
                        .append(SvgCharts.lineChart("rate-size-chart", series(true), "Mpps (message rate)"))
                        .append("</div>\n</section>\n");
            }
        }

        /** One series per group of choices that differ only in size; {@code rate}: Mpps instead of the headline figure. */
        private List<SvgCharts.Series> series(boolean rate) {
            Map<String, List<Integer>> groups = new LinkedHashMap<>();
            for (int i = 0; i < rows.size(); i++) {
                groups.computeIfAbsent(groupLabel(rows.get(i).choice()), k -> new ArrayList<>()).add(i);
            }
            String u = rate ? "Mpps" : unit;
            List<SvgCharts.Series> series = new ArrayList<>();
            for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
                List<SvgCharts.Point> pts = new ArrayList<>();
                List<Long> failedSizes = new ArrayList<>();
                boolean inconsistent = false;
                for (int i : g.getValue()) {
                    SweepRow row = rows.get(i);
                    inconsistent |= !row.consistent();
                    if (row.result().isPresent()) {
                        for (SizePoint p : points(row.result().get())) {
                            double v = rate ? p.rate : p.value;
                            pts.add(new SvgCharts.Point(p.sizeBytes, v, g.getKey() + " \u00b7 "
                                    + HtmlText.size(p.sizeBytes) + ": " + num(v) + " " + u));
                        }
                    } else {
                        choiceSize(row).ifPresent(failedSizes::add);
                    }
                }
                series.add(new SvgCharts.Series(g.getKey(), pts, failedSizes, inconsistent));
            }
            return series;
        }

        /** One size's figures: the headline figure (Gb/s or t_typical us) and, for bandwidth, the message rate. */
        private record SizePoint(long sizeBytes, double value, double rate) {
        }

        private List<SizePoint> points(PerfTestResult res) {
            List<SizePoint> pts = new ArrayList<>();
            for (BandwidthResult b : res.bandwidth()) {
                pts.add(new SizePoint(b.sizeBytes(), SweepRow.gbits(b.average(), b.unit()), b.messageRateMpps()));
            }
            for (LatencyResult l : res.latency()) {
                pts.add(new SizePoint(l.sizeBytes(), l.typicalUs(), Double.NaN));
            }
            return pts;
        }

        /** The message size a (failed) choice asked for: its options' size. */
        private static Optional<Long> choiceSize(SweepRow row) {
            return row.choice().options().params().allSizes() ? Optional.empty() : Optional.of(row.choice().options().params().size());
        }

        private static String groupLabel(SweepChoice c) {
            StringJoiner sj = new StringJoiner(" ");
            c.dimensions().forEach((k, v) -> {
                if (!k.equals(SIZE_DIMENSION)) {
                    sj.add(k + "=" + v);
                }
            });
            return sj.length() == 0 ? "all choices" : sj.toString();
        }

        // -------------------------------------------------------------- table

        private void table() {
            boolean sizeDim = r.dimensions().contains(SIZE_DIMENSION);
            boolean multi = rows.stream().anyMatch(row -> row.result().map(res -> points(res).size() > 1).orElse(false));
            boolean sizeColumn = !sizeDim || multi;
            List<String> figures = bw ? List.of("peak Gb/s", "msg rate Mpps")
                    : List.of("t_avg us", "p99 us", "p99.9 us");
            int columns = 1 + r.dimensions().size() + (sizeColumn ? 1 : 0) + 1 + figures.size() + 2;

            out.append("<section id=\"choices\">\n<h2>Choices side by side</h2>\n");
            out.append("<p class=\"note\">One row per choice in the order they ran; under each, its verdicts "
                    + "(with the fix), the path it ran on and, for a failed choice, the error.</p>\n");
            out.append("<table class=\"sweep\">\n<thead>\n<tr><th class=\"num\">#</th>");
            for (String d : r.dimensions()) {
                out.append("<th>").append(esc(d)).append("</th>");
            }
            if (sizeColumn) {
                out.append("<th>msg size</th>");
            }
            out.append("<th class=\"num headline\">").append(esc(bw ? "average Gb/s" : "t_typical us"))
                    .append("<br/><span class=\"small\">headline</span></th>");
            for (String f : figures) {
                out.append("<th class=\"num\">").append(esc(f)).append("</th>");
            }
            out.append("<th>verdicts</th><th>status</th></tr>\n</thead>\n");

            for (int i = 0; i < rows.size(); i++) {
                SweepRow row = rows.get(i);
                List<String> cls = new ArrayList<>();
                cls.add(row.ok() ? "ran" : "failed");
                if (i == bestIndex) {
                    cls.add("best");
                }
                if (i == worstIndex) {
                    cls.add("worst");
                }
                if (!row.consistent()) {
                    cls.add("inconsistent");
                }
                out.append("<tbody class=\"choice ").append(String.join(" ", cls)).append("\" id=\"choice-").append(i)
                        .append("\" data-index=\"").append(i).append("\">\n<tr class=\"main\">");
                out.append("<td class=\"num\">").append(i + 1).append("</td>");
                for (String d : r.dimensions()) {
                    out.append("<td class=\"dim mono\">").append(esc(row.choice().dimensions().getOrDefault(d, "")))
                            .append("</td>");
                }
                if (sizeColumn) {
                    out.append("<td class=\"mono\">").append(esc(sizeText(row))).append("</td>");
                }
                figureCells(row, figures.size());
                out.append("<td class=\"verdict-ids\">");
                if (row.verdicts().isEmpty()) {
                    out.append(row.ok() ? "<span class=\"ok\">consistent</span>" : "<span class=\"small\">none known</span>");
                }
                for (Verdict v : row.verdicts()) {
                    out.append("<span class=\"badge ").append(sevClass(v.severity())).append("\">").append(esc(v.id()))
                            .append(' ').append(esc(v.severity().name())).append("</span> ");
                }
                out.append("</td><td class=\"status\">");
                if (!row.ok()) {
                    out.append("<span class=\"tag failed\">failed</span> ");
                }
                if (i == bestIndex) {
                    out.append("<span class=\"tag best\">best</span> ");
                }
                if (i == worstIndex) {
                    out.append("<span class=\"tag worst\">worst</span> ");
                }
                if (!row.consistent()) {
                    out.append("<span class=\"tag inconsistent\">inconsistent</span> ");
                }
                out.append("<span class=\"small\">").append(esc(HtmlText.duration(row.elapsed()))).append("</span>");
                out.append("</td></tr>\n");
                details(row, columns);
                out.append("</tbody>\n");
            }
            out.append("</table>\n</section>\n");
        }

        private String sizeText(SweepRow row) {
            if (row.result().isEmpty()) {
                return choiceSize(row).map(HtmlText::size).orElse("all");
            }
            List<SizePoint> pts = points(row.result().get());
            if (pts.isEmpty()) {
                return "-";
            }
            long at = bw ? pts.stream().mapToLong(SizePoint::sizeBytes).max().getAsLong()
                    : pts.stream().mapToLong(SizePoint::sizeBytes).min().getAsLong();
            return HtmlText.size(at) + (pts.size() > 1 ? " (of " + pts.size() + ")" : "");
        }

        private void figureCells(SweepRow row, int others) {
            OptionalDouble h = row.headline();
            if (row.result().isEmpty() || h.isEmpty()) {
                out.append("<td class=\"num headline failed-text\">").append(row.ok() ? "-" : "failed").append("</td>");
                out.append("<td class=\"num\">-</td>".repeat(others));
                return;
            }
            out.append("<td class=\"num headline\"><b>").append(esc(num(h.getAsDouble()))).append("</b></td>");
            PerfTestResult res = row.result().get();
            if (bw) {
                Optional<BandwidthResult> b = res.bandwidth().stream().max(Comparator.comparingLong(BandwidthResult::sizeBytes));
                String peak = b.map(x -> x.peak() > 0 ? num(SweepRow.gbits(x.peak(), x.unit())) : "n/a").orElse("-");
                String rate = b.map(x -> num(x.messageRateMpps())).orElse("-");
                boolean small = small(row);
                out.append("<td class=\"num\">").append(esc(peak)).append("</td><td class=\"num rate")
                        .append(small ? " small-size\"><b>" : "\">").append(esc(rate)).append(small ? "</b>" : "")
                        .append("</td>");
            } else {
                Optional<LatencyResult> l = res.latency().stream().min(Comparator.comparingLong(LatencyResult::sizeBytes));
                out.append("<td class=\"num\">").append(esc(l.map(x -> num(x.avgUs())).orElse("-"))).append("</td>")
                        .append("<td class=\"num\">").append(esc(l.map(x -> num(x.p99Us())).orElse("-"))).append("</td>")
                        .append("<td class=\"num\">").append(esc(l.map(x -> num(x.p999Us())).orElse("-"))).append("</td>");
            }
        }

        private void details(SweepRow row, int columns) {
            out.append("<tr class=\"detail\"><td></td><td colspan=\"").append(columns - 1).append("\">\n");
            row.error().ifPresent(e -> out.append("<div class=\"row-error\"><b>error:</b> <span class=\"mono\">")
                    .append(esc(e)).append("</span></div>\n"));
            if (!row.verdicts().isEmpty()) {
                out.append("<ul class=\"verdicts\">\n");
                for (Verdict v : row.verdicts()) {
                    out.append("<li class=\"").append(sevClass(v.severity())).append("\"><span class=\"badge ")
                            .append(sevClass(v.severity())).append("\">").append(esc(v.id() + " " + v.severity()))
                            .append("</span> <span class=\"check mono\">").append(esc(v.check())).append("</span> ")
                            .append(esc(v.summary()));
                    out.append("<div class=\"fix\"><b>fix:</b> ").append(esc(v.fixHint())).append("</div>");
                    if (!v.evidence().isEmpty()) {
                        StringJoiner ev = new StringJoiner("; ");
                        v.evidence().forEach((k, val) -> ev.add(k + "=" + val));
                        out.append("<div class=\"evidence mono\">").append(esc(ev.toString())).append("</div>");
                    }
                    out.append("</li>\n");
                }
                out.append("</ul>\n");
            }
            row.path().ifPresent(p -> out.append("<div class=\"path mono\">").append(esc(p)).append("</div>\n"));
            row.result().flatMap(PerfTestResult::path).flatMap(PathReport::peer).ifPresent(p ->
                    out.append("<div class=\"path mono\">").append(esc("Peer " + PathSummary.text(p))).append("</div>\n"));
            row.result().ifPresent(res -> res.warnings().forEach(w ->
                    out.append("<div class=\"row-warning\"><b>warning:</b> ").append(esc(w)).append("</div>\n")));
            out.append("</td></tr>\n");
        }

        // -------------------------------------------------------------- legend

        private void legend() {
            out.append("<section id=\"legend\">\n<h2>How to read this report</h2>\n<ul class=\"legend\">\n");
            out.append("<li>").append(swatch(SvgCharts.BEST, false, false)).append(" <span class=\"tag best\">best</span> ")
                    .append(esc(bw ? "the highest bandwidth among the choices compared, when they are ranked"
                            : "the lowest latency among the choices compared, when they are ranked")).append("</li>\n");
            out.append("<li>").append(swatch(SvgCharts.WORST, false, false)).append(" <span class=\"tag worst\">worst</span> ")
                    .append(esc(bw ? "the lowest bandwidth among the choices compared, when they are ranked"
                            : "the highest latency among the choices compared, when they are ranked")).append("</li>\n");
            out.append("<li id=\"ranking-rule\"><b>ranking:</b> ").append(esc(ranking.rule())).append("</li>\n");
            if (bw) {
                out.append("<li><b>message rate:</b> ").append(esc("choices at " + HtmlText.size(MESSAGE_RATE_MAX_SIZE)
                        + " or less are charted by message rate (Mpps, perftest's MsgRate, bold in the table), larger "
                        + "ones by Gb/s; small messages are bound by the rate at which work requests are taken."))
                        .append("</li>\n");
            }
            out.append("<li><b>axes:</b> ").append(esc("a value axis is logarithmic (marked \"log scale\") when its "
                    + "largest figure is at least " + (int) ValueAxis.DECADE_RATIO + " times its smallest, linear from 0 "
                    + "otherwise; message sizes are on a log2 axis.")).append("</li>\n");
            out.append("<li>").append(swatch(SvgCharts.BAR, true, false))
                    .append(" <span class=\"tag inconsistent\">inconsistent</span> ")
                    .append("the path has a WARNING or ERROR verdict: the figure may not be what the intended path can do "
                            + "(hatched bar, orange row)</li>\n");
            out.append("<li>").append(swatch("#f6f6f6", false, true)).append(" <span class=\"tag failed\">failed</span> ")
                    .append("the choice did not run; its decoded error is in the table</li>\n");
            out.append("<li><span class=\"badge error\">ERROR</span> likely to fail or to measure another path than intended; "
                    + "<span class=\"badge warning\">WARNING</span> probably not what the fabric can do; "
                    + "<span class=\"badge info\">INFO</span> worth knowing</li>\n");
            out.append("</ul>\n<table class=\"classes\">\n");
            FAILURE_CLASSES.forEach((id, text) -> out.append("<tr><th>").append(esc(id)).append("</th><td>")
                    .append(esc(text)).append("</td></tr>\n"));
            out.append("</table>\n</section>\n");
        }

        private static String swatch(String fill, boolean hatched, boolean dashed) {
            StringBuilder s = new StringBuilder("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"swatch\" width=\"34\" "
                    + "height=\"14\" viewBox=\"0 0 34 14\">");
            if (hatched) {
                s.append(SvgCharts.hatchDefs("hatch-legend").strip());
            }
            s.append("<rect x=\"1\" y=\"1\" width=\"32\" height=\"12\" fill=\"").append(fill).append('"')
                    .append(dashed ? " stroke=\"#9a9a9a\" stroke-dasharray=\"4 3\"" : "").append("/>");
            if (hatched) {
                s.append("<rect x=\"1\" y=\"1\" width=\"32\" height=\"12\" fill=\"url(#hatch-legend)\" stroke=\"")
                        .append(SvgCharts.WARN).append("\" stroke-width=\"2\"/>");
            }
            return s.append("</svg>").toString();
        }
    }

    // ------------------------------------------------------------------ helpers

    /** The ids of a row's WARNING and ERROR verdicts, distinct, e.g. {@code F2 F3}. */
    static String problemIds(SweepRow row) {
        Set<String> ids = new LinkedHashSet<>();
        row.verdicts().stream().filter(v -> v.severity() != Severity.INFO).forEach(v -> ids.add(v.id()));
        return String.join(" ", ids);
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return (nl < 0 ? text : text.substring(0, nl)).strip();
    }

    private static String sevClass(Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case INFO -> "info";
        };
    }

    private static final String CSS = """
            :root { --best: #1e8a4c; --worst: #c0392b; --warn: #d9822b; --warn-text: #a65400; --fail: #8b1a1a; }
            * { box-sizing: border-box; }
            body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; font-size: 14px;
                   color: #1d2125; background: #ffffff; margin: 24px; line-height: 1.4;
                   -webkit-print-color-adjust: exact; print-color-adjust: exact; }
            h1 { font-size: 22px; margin: 0 0 8px 0; }
            h1 .mono { font-size: inherit; }
            h2 { font-size: 17px; margin: 0 0 4px 0; }
            .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
            .small { font-size: 11.5px; color: #5b636b; }
            .note { margin: 0 0 8px 0; color: #4b535b; font-size: 13px; }
            header { border-bottom: 2px solid #d0d4da; padding-bottom: 10px; margin-bottom: 18px; }
            .counts { margin: 4px 0 10px 0; }
            .pill { display: inline-block; border-radius: 12px; padding: 2px 11px; margin-right: 8px; font-weight: 600;
                    background: #e8edf3; color: #24313f; }
            .pill.ran { background: #e3f1e8; color: #17603a; }
            .pill.failed { background: #f9e1e1; color: var(--fail); }
            .pill.inconsistent { background: #fbead6; color: var(--warn-text); }
            .pill.zero { background: #f1f2f4; color: #6b737b; }
            table.facts { border-collapse: collapse; }
            table.facts th { text-align: left; font-weight: 600; padding: 2px 14px 2px 0; vertical-align: top; color: #4b535b; }
            table.facts td { padding: 2px 0; }
            section { margin-bottom: 22px; }
            .chart-box { break-inside: avoid; page-break-inside: avoid; }
            .chart-wrap { overflow-x: auto; }
            svg.chart { display: block; max-width: 100%; height: auto; }
            table.sweep { border-collapse: collapse; width: 100%; }
            table.sweep th { background: #eef1f5; text-align: left; padding: 6px 8px; border-bottom: 2px solid #b9c0c8;
                             font-size: 13px; vertical-align: bottom; }
            table.sweep td { padding: 5px 8px; vertical-align: top; }
            table.sweep .num { text-align: right; white-space: nowrap; }
            table.sweep td.dim { word-break: break-all; }
            table.sweep tbody { border-bottom: 1px solid #d0d4da; break-inside: avoid; page-break-inside: avoid; }
            table.sweep tbody tr.main td:first-child { border-left: 6px solid transparent; }
            table.sweep tbody tr.detail td:first-child { border-left: 6px solid transparent; }
            table.sweep tbody.inconsistent tr td:first-child { border-left-color: var(--warn); }
            table.sweep tbody.best tr td:first-child { border-left-color: var(--best); }
            table.sweep tbody.worst tr td:first-child { border-left-color: var(--worst); }
            table.sweep tbody.failed tr td:first-child { border-left-color: #9a9a9a; }
            table.sweep tbody.inconsistent { background: #fff7ee; }
            table.sweep tbody.best { background: #ecf7f0; }
            table.sweep tbody.worst { background: #fcefed; }
            table.sweep tbody.failed { background: #f7f7f7; }
            table.sweep tr.detail td { padding-top: 0; font-size: 12.5px; }
            td.headline { font-size: 15px; }
            .failed-text { color: var(--fail); font-weight: 600; }
            .ok { color: #17603a; font-weight: 600; }
            .badge { display: inline-block; border-radius: 3px; padding: 0 5px; font-size: 11.5px; font-weight: 700;
                     white-space: nowrap; margin: 1px 0; }
            .badge.error { background: var(--worst); color: #ffffff; }
            .badge.warning { background: var(--warn); color: #ffffff; }
            .badge.info { background: #dfe6ee; color: #2b3a4a; }
            .tag { display: inline-block; border-radius: 3px; padding: 0 6px; font-size: 12px; font-weight: 700;
                   border: 1.5px solid; margin: 1px 0; white-space: nowrap; }
            .tag.best { color: var(--best); border-color: var(--best); background: #ffffff; }
            .tag.worst { color: var(--worst); border-color: var(--worst); background: #ffffff; }
            .tag.inconsistent { color: var(--warn-text); border-color: var(--warn); background: #ffffff; }
            .tag.failed { color: var(--fail); border-color: var(--fail); background: #ffffff; }
            ul.verdicts { margin: 2px 0 4px 0; padding-left: 0; list-style: none; }
            ul.verdicts li { margin: 3px 0; padding-left: 8px; border-left: 3px solid #c9d0d8; }
            ul.verdicts li.error { border-left-color: var(--worst); }
            ul.verdicts li.warning { border-left-color: var(--warn); }
            .check { color: #4b535b; }
            .fix { color: #1d3d5c; }
            .evidence { color: #5b636b; font-size: 11.5px; word-break: break-all; }
            .path { color: #3b434b; font-size: 11.5px; margin: 2px 0; word-break: break-word; }
            .row-error { color: var(--fail); margin: 2px 0 4px 0; white-space: pre-wrap; word-break: break-word; }
            .row-warning { color: var(--warn-text); margin: 2px 0; }
            ul.legend { list-style: none; padding-left: 0; margin: 4px 0 10px 0; }
            ul.legend li { margin: 4px 0; }
            svg.swatch { vertical-align: middle; }
            table.classes { border-collapse: collapse; font-size: 13px; }
            table.classes th { text-align: left; padding: 1px 12px 1px 0; vertical-align: top; }
            footer { color: #7b838b; font-size: 11.5px; border-top: 1px solid #d0d4da; padding-top: 6px; }
            @media print {
              body { margin: 10mm; font-size: 11px; }
              .chart-wrap { overflow: visible; }
            }
            """;
}
