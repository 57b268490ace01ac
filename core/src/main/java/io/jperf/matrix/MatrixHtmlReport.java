package io.jperf.matrix;

import java.util.Locale;

/**
 * The matrix as one self-contained HTML page (no scripts, fonts or images from anywhere): the
 * figures, the ranked suspects, and a host x host heatmap per rail combination. A cell is the
 * test between its row's and its column's host (either direction); its colour is the figure
 * against the rail's median, green at the median or better to red at half of it (or twice, for a
 * latency); a bad link is outlined, a failed test black, a pair not tested grey. Each cell's title
 * carries the figure, the path findings and the error. Stateless.
 */
public final class MatrixHtmlReport {
    /** Beyond this many hosts the page has no heatmaps (a million cells per rail): the suspects and medians only. */
    public static final int MAX_HEATMAP_HOSTS = 256;

    private MatrixHtmlReport() {
    }

    public static String render(MatrixAnalysis a, String title) {
        ResultMatrix m = a.matrix();
        int n = m.hosts().size();
        int cell = n <= 32 ? 22 : n <= 128 ? 8 : 3;
        StringBuilder sb = new StringBuilder(4096 + n * n * m.combinations() * 40);
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>jperf matrix: ")
                .append(esc(title)).append("</title>\n<style>\n")
                .append("body{font-family:sans-serif;margin:1.5em;color:#222}")
                .append("table.hm{border-collapse:collapse;margin:0.5em 0 1.5em}")
                .append("table.hm td{width:").append(cell).append("px;height:").append(cell)
                .append("px;padding:0;border:1px solid #fff;font-size:9px;text-align:center}")
                .append("table.hm th{font-size:10px;font-weight:normal;padding:0 4px;white-space:nowrap}")
                .append("td.bad{outline:2px solid #000;outline-offset:-2px}td.none{background:#e8e8e8}")
                .append("td.failed{background:#000;color:#fff}.fail{color:#b00;font-weight:bold}")
                .append(".pass{color:#070;font-weight:bold}ol li{margin:0.2em 0}")
                .append("th.col{writing-mode:vertical-rl;transform:rotate(180deg)}\n</style></head><body>\n");
        sb.append("<h1>jperf matrix</h1>\n<p>").append(esc(title)).append("</p>\n<p>")
                .append(n).append(" hosts, ").append(m.rails().size()).append(" rails (").append(m.railMode().label())
                .append("), ").append(a.tests()).append(" tests, ").append(a.failed()).append(" failed; median ")
                .append(Double.isNaN(a.median()) ? "-" : esc(a.figure(a.median())));
        if (a.threshold() != null) {
            sb.append("; bad link: ").append(m.metric().higherIsBetter() ? "below " : "above ")
                    .append(esc(a.threshold().toString()))
                    .append(Double.isNaN(a.limit()) ? "" : " = " + esc(a.figure(a.limit())));
        }
        sb.append("</p>\n<p class=\"").append(a.failedThreshold() ? "fail\">FAIL: " + a.badLinks().size() + " bad link"
                + (a.badLinks().size() == 1 ? "" : "s") : "pass\">PASS").append("</p>\n");
        if (!a.suspects().isEmpty()) {
            sb.append("<h2>Suspects, most likely first</h2>\n<ol>\n");
            int shown = 0;
            for (MatrixAnalysis.Suspect s : a.suspects()) {
                if (shown++ == 100) {
                    sb.append("<li>... ").append(a.suspects().size() - 100).append(" more in the JSON</li>\n");
                    break;
                }
                sb.append("<li><b>").append(s.kind()).append("</b> ").append(esc(a.describe(s))).append("</li>\n");
            }
            sb.append("</ol>\n");
        }
        for (int c = 0; c < m.combinations(); c++) {
            sb.append("<h2>Rail ").append(esc(m.combinationName(c))).append(": median ")
                    .append(Double.isNaN(a.median(c)) ? "-" : esc(a.figure(a.median(c)))).append("</h2>\n");
            if (n <= MAX_HEATMAP_HOSTS) {
                heatmap(sb, a, c, cell >= 8);
            } else {
                sb.append("<p>").append(n).append(" hosts: no heatmap beyond ").append(MAX_HEATMAP_HOSTS)
                        .append(" (the JSON has every point).</p>\n");
            }
        }
        sb.append("<p>Rows and columns are hosts; a cell is the test between them in either direction. Green: the"
                + " rail's median or better; red: half of it (bandwidth) or twice it (latency); outlined: a bad link;"
                + " black: failed; grey: not tested. Hover a cell for its figure, path findings and error.</p>\n");
        return sb.append("</body></html>\n").toString();
    }

    private static void heatmap(StringBuilder sb, MatrixAnalysis a, int c, boolean labels) {
        ResultMatrix m = a.matrix();
        int n = m.hosts().size();
        double railMedian = a.median(c);
        sb.append("<table class=\"hm\">");
        if (labels) {
            sb.append("<tr><th></th>");
            for (int j = 0; j < n; j++) {
                sb.append("<th class=\"col\">").append(esc(m.hosts().get(j))).append("</th>");
            }
            sb.append("</tr>");
        }
        for (int i = 0; i < n; i++) {
            sb.append("<tr>");
            if (labels) {
                sb.append("<th>").append(esc(m.hosts().get(i))).append("</th>");
            }
            for (int j = 0; j < n; j++) {
                int client = i;
                int server = j;
                if (m.status(c, i, j) == ResultMatrix.Status.NONE && m.status(c, j, i) != ResultMatrix.Status.NONE) {
                    client = j;
                    server = i;
                }
                cell(sb, a, c, client, server, railMedian);
            }
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
    }

    private static void cell(StringBuilder sb, MatrixAnalysis a, int c, int client, int server, double railMedian) {
        ResultMatrix m = a.matrix();
        ResultMatrix.Status s = client == server ? ResultMatrix.Status.NONE : m.status(c, client, server);
        String who = m.hosts().get(client) + " -> " + m.hosts().get(server) + " rail " + m.combinationName(c);
        String findings = VerdictMask.describe(m.verdicts(c, client, server));
        switch (s) {
            case NONE -> sb.append("<td class=\"none\"></td>");
            case FAILED -> sb.append("<td class=\"failed bad\" title=\"").append(esc(who + ": FAILED "
                    + m.error(c, client, server).orElse("") + (findings.isEmpty() ? "" : "; path " + findings)))
                    .append("\">x</td>");
            case OK -> {
                double v = m.value(c, client, server);
                boolean bad = a.isBad(c, client, server);
                sb.append("<td").append(bad ? " class=\"bad\"" : "").append(" style=\"background:")
                        .append(colour(v, railMedian, m.metric())).append("\" title=\"")
                        .append(esc(who + ": " + a.figure(v) + (findings.isEmpty() ? "" : "; path " + findings)))
                        .append("\"></td>");
            }
        }
    }

    /** hsl(120) green at the median or better, hsl(0) red at half of it (twice it for latency). */
    static String colour(double v, double median, Metric metric) {
        double ratio = Double.isNaN(median) || median <= 0 ? 1 : metric.higherIsBetter() ? v / median : median / v;
        double t = Math.max(0, Math.min(1, (ratio - 0.5) / 0.5));
        return String.format(Locale.ROOT, "hsl(%d,70%%,%d%%)", Math.round(120 * t), 45 + Math.round(10 * t));
    }

    static String esc(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            switch (ch) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(ch < 0x20 && ch != '\n' && ch != '\t' ? '\uFFFD' : ch);
            }
        }
        return sb.toString();
    }
}
