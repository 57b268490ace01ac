package io.jperf.sweep;

import io.jperf.engine.PerfTestResult;
import io.jperf.path.Severity;
import io.jperf.path.Verdict;
import io.jperf.report.RunInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.StringJoiner;

/**
 * A sweep as text for a terminal: a title line, the side-by-side table (one line per point:
 * index, the dimension values, the headline with its unit, ok/FAILED, the ids of its path
 * findings), the best and worst points marked, and below it one block per point with its path
 * summary, each finding with its fix, its warnings and, for a failed point, its error.
 *
 * <pre>
 * jperf sweep write-bw against 10.20.0.2: 4 points, 4 ran, 0 failed, 2 with path problems (9.9 s)
 * headline: average Gb/s at the largest message size, higher is better
 * ranked: the worst of the 2 choices at 64K is 48 % below the best, beyond the 20 % noise threshold of one run each
 *
 *   #  rail            size  Gb/s   status  path
 *   0  rxe0>10.20.0.2  4K    15.72  ok      -
 *   1  rxe0>10.20.0.2  64K   19.31  ok      -       &lt;- best
 *   2  rxe1>10.20.1.2  4K    11.08  ok      F2!
 *   3  rxe1>10.20.1.2  64K    9.98  ok      F2!     &lt;- worst
 * </pre>
 *
 * Path column: {@code F2!} an ERROR finding, {@code F5} a WARNING, {@code -} consistent (INFO
 * findings are listed below the table but do not make a path inconsistent). The best and worst
 * are marked only when {@link SweepRanking} ranks the points (two or more at one size, further
 * apart than the noise threshold of one run each); the line above the table says whether they are. Lines of the details
 * are wrapped at {@value #WIDTH} columns; table cells longer than {@value #MAX_CELL} characters
 * are shortened (the details have them in full). Stateless and thread-safe.
 */
public final class SweepTextReport {

    /** The column the detail lines wrap at. */
    static final int WIDTH = 100;
    /** The widest table cell. */
    static final int MAX_CELL = 28;

    private SweepTextReport() {
    }

    /** The whole report, ending with a newline, run info of this process. */
    public static String render(SweepResult r) {
        return render(r, RunInfo.embedded());
    }

    /** The whole report, ending with a newline; the line after the title names {@code run} (wrapped). */
    public static String render(SweepResult r, RunInfo run) {
        StringBuilder out = new StringBuilder(4096);
        out.append(title(r)).append('\n');
        wrap(out, run.line(), "", "    ");
        out.append("headline: ").append(r.higherIsBetter()
                ? "average " + r.headlineUnit() + " at the largest message size, higher is better"
                : "typical latency (" + r.headlineUnit() + ") at the smallest message size, lower is better")
                .append('\n');
        wrap(out, r.ranking().summary(), "", "    ");
        out.append('\n');
        table(r, out);
        out.append('\n');
        details(r, out);
        return out.toString();
    }

    /** {@code jperf sweep write-bw against PEER: N points, N ran, N failed, N with path problems (12.3 s)}. */
    static String title(SweepResult r) {
        long ran = r.rows().stream().filter(SweepRow::ok).count();
        long inconsistent = r.rows().stream().filter(row -> !row.consistent()).count();
        return "jperf sweep " + kindName(r) + " against " + r.peerHost() + ": " + r.rows().size() + " point"
                + (r.rows().size() == 1 ? "" : "s") + ", " + ran + " ran, " + (r.rows().size() - ran) + " failed, "
                + inconsistent + " with path problems (" + seconds(r.elapsed().toMillis()) + ")";
    }

    /** jperf's command for the kind, e.g. {@code write-bw}. */
    static String kindName(SweepResult r) {
        return r.kind().commandName();
    }

    /** The position (in {@code r.rows()}) of the best row, see {@link SweepResult#best()}. */
    static OptionalInt bestPosition(SweepResult r) {
        return r.best().map(b -> OptionalInt.of(r.rows().indexOf(b))).orElse(OptionalInt.empty());
    }

    /** The position of the worst row, see {@link SweepResult#worst()}. */
    static OptionalInt worstPosition(SweepResult r) {
        return r.worst().map(w -> OptionalInt.of(r.rows().indexOf(w))).orElse(OptionalInt.empty());
    }

    /** The ids of a row's WARNING and ERROR findings, e.g. {@code F2! F5}, or {@code -}. */
    static String verdictIds(SweepRow row) {
        StringJoiner sj = new StringJoiner(" ");
        sj.setEmptyValue("-");
        List<String> seen = new ArrayList<>();
        for (Verdict v : row.verdicts()) {
            if (v.severity() == Severity.INFO) {
                continue;
            }
            String id = v.id() + (v.severity() == Severity.ERROR ? "!" : "");
            if (!seen.contains(id)) {
                seen.add(id);
                sj.add(id);
            }
        }
        return sj.toString();
    }

    /** A headline figure: two decimals, three below 1. */
    static String figure(double v) {
        return String.format(Locale.ROOT, Math.abs(v) < 1 && v != 0 ? "%.3f" : "%.2f", v);
    }

    private static void table(SweepResult r, StringBuilder out) {
        List<String> header = new ArrayList<>();
        header.add("#");
        header.addAll(r.dimensions());
        if (r.dimensions().isEmpty()) {
            header.add("point");
        }
        header.add(r.headlineUnit());
        header.add("status");
        header.add("path");
        int best = bestPosition(r).orElse(-1);
        int worst = worstPosition(r).orElse(-1);
        List<List<String>> cells = new ArrayList<>();
        for (int i = 0; i < r.rows().size(); i++) {
            SweepRow row = r.rows().get(i);
            List<String> line = new ArrayList<>();
            line.add(Integer.toString(row.choice().index()));
            for (String dim : r.dimensions()) {
                line.add(shorten(row.choice().dimensions().getOrDefault(dim, "")));
            }
            if (r.dimensions().isEmpty()) {
                line.add(row.choice().label());
            }
            line.add(row.headline().isPresent() ? figure(row.headline().getAsDouble()) : "-");
            line.add(row.ok() ? "ok" : "FAILED");
            line.add(verdictIds(row) + (i == best ? "  <- best" : i == worst ? "  <- worst" : ""));
            cells.add(line);
        }
        int columns = header.size();
        int[] width = new int[columns];
        for (int c = 0; c < columns; c++) {
            width[c] = header.get(c).length();
            for (List<String> line : cells) {
                width[c] = Math.max(width[c], line.get(c).length());
            }
        }
        int figureColumn = columns - 3;
        appendLine(out, header, width, figureColumn);
        for (List<String> line : cells) {
            appendLine(out, line, width, figureColumn);
        }
    }

    private static void appendLine(StringBuilder out, List<String> cells, int[] width, int figureColumn) {
        StringBuilder line = new StringBuilder("  ");
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            boolean last = c == cells.size() - 1;
            boolean right = c == 0 || c == figureColumn;
            if (right) {
                line.append(" ".repeat(width[c] - cell.length())).append(cell);
            } else {
                line.append(cell);
                if (!last) {
                    line.append(" ".repeat(width[c] - cell.length()));
                }
            }
            if (!last) {
                line.append("  ");
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String shorten(String cell) {
        return cell.length() <= MAX_CELL ? cell : cell.substring(0, MAX_CELL - 3) + "...";
    }

    private static void details(SweepResult r, StringBuilder out) {
        for (SweepRow row : r.rows()) {
            out.append('[').append(row.choice().index()).append("] ").append(row.choice().label()).append(": ");
            if (row.ok()) {
                out.append("ok, ").append(figure(row.headline().orElse(Double.NaN))).append(' ')
                        .append(r.headlineUnit());
            } else {
                out.append("FAILED");
            }
            out.append(" (").append(seconds(row.elapsed().toMillis())).append(")\n");
            row.choice().peerAddress().ifPresent(a -> wrap(out, "peer RDMA address " + a, "    ", "    "));
            row.path().ifPresent(p -> wrap(out, p, "    ", "      "));
            if (row.path().isEmpty()) {
                wrap(out, "Path: unknown (the point failed before its path could be recorded)", "    ", "      ");
            }
            row.error().ifPresent(e -> {
                String[] lines = e.strip().split("\n");
                for (int i = 0; i < lines.length; i++) {
                    wrap(out, (i == 0 ? "error: " : "") + lines[i].strip(), i == 0 ? "    " : "      ", "      ");
                }
            });
            for (Verdict v : row.verdicts()) {
                wrap(out, v.id() + " " + v.severity() + " " + v.check() + ": " + v.summary(), "    ", "      ");
                wrap(out, "fix: " + v.fixHint(), "      ", "        ");
            }
            row.result().map(PerfTestResult::warnings).orElse(List.of())
                    .forEach(w -> wrap(out, "warning: " + w, "    ", "      "));
            if (row.ok() && row.verdicts().isEmpty()) {
                out.append("    path checks: consistent").append(row.result().flatMap(PerfTestResult::path)
                        .map(p -> p.peer().isPresent() ? " (both ends)" : " (this end)").orElse("")).append('\n');
            }
        }
    }

    /** Appends {@code text} wrapped at {@link #WIDTH} columns at spaces; long words stay whole. */
    static void wrap(StringBuilder out, String text, String firstIndent, String nextIndent) {
        String indent = firstIndent;
        StringBuilder line = new StringBuilder(indent);
        boolean empty = true;
        for (String word : text.split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            if (!empty && line.length() + 1 + word.length() > WIDTH) {
                out.append(line).append('\n');
                indent = nextIndent;
                line = new StringBuilder(indent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        out.append(line).append('\n');
    }

    private static String seconds(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
