package io.jperf.cli;

import io.jperf.engine.PathReport;
import io.jperf.engine.TestListener;
import io.jperf.path.PathSummary;
import io.jperf.path.Verdict;
import io.jperf.options.OutputMode;
import io.jperf.options.TestOptions;
import io.jperf.report.PerftestTextReport;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;
import io.jperf.stats.LatencySamples;
import io.jperf.wire.PeerText;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** Prints a running test the way perftest does: header, address lines, then one table row per size. */
final class PerftestPrinter implements TestListener {
    private final PerftestTextReport report = new PerftestTextReport();
    private final TestOptions options;
    private final PrintWriter out;
    private final PrintWriter err;
    private final OutputMode mode;
    private boolean tableOpen;
    private PathReport path;
    private final RunInfo run;
    private boolean histogram;
    private boolean unsorted;
    private boolean reportBoth;
    private BandwidthResult localPart;
    private BandwidthResult remotePart;
    private SysfsCounters counters;
    private Path procStat;
    private CpuTimes cpuBefore;
    private boolean cpuUnreadable;
    private Double cpuPercent;

    /** @param run named in the first line of the header */
    PerftestPrinter(TestOptions options, RunInfo run, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.run = run;
        this.out = out;
        this.err = err;
        this.mode = options.output().outputMode();
    }

    @Override
    public void connected(TestHeader header, List<EndpointInfo> local, List<EndpointInfo> remote) {
        if (procStat != null && cpuBefore == null) {
            cpuBefore = readCpu(); // a unidirectional server hears no measuring(): its figure spans the test
        }
        if (mode == OutputMode.NONE) {
            out.println(" " + PeerText.line(run.line()));
            out.print(report.header(header));
            local.forEach(e -> out.print(report.addressLines(e, true)));
            remote.forEach(e -> out.print(report.addressLines(e, false)));
        }
        out.flush();
    }

    /** perftest's {@code -H} and {@code -U}: print each size's samples before its row. */
    PerftestPrinter samples(boolean sorted, boolean inOrder) {
        this.histogram = sorted;
        this.unsorted = inOrder;
        return this;
    }

    /**
     * perftest's {@code --report-both}: after a bidirectional row, each side's own row (only without
     * {@code -a}, as perftest prints them only then).
     */
    PerftestPrinter reportBoth(boolean both) {
        this.reportBoth = both;
        return this;
    }

    /**
     * perftest's {@code -W}: after each row, the changes of these counters since its measurement started (on a
     * unidirectional bandwidth server, which measures nothing: since the counters were opened).
     */
    PerftestPrinter counters(SysfsCounters list) {
        this.counters = list;
        return this;
    }

    /**
     * perftest's {@code --cpu_util}: a CPU_Util[%] column of the bandwidth table, from {@code file}'s (normally
     * {@link CpuTimes#PROC_STAT}) user and idle times read when the measurement starts and when its row comes.
     *
     * @param file null for no column
     */
    PerftestPrinter cpuUtil(Path file) {
        this.procStat = file;
        return this;
    }

    @Override
    public void measuring(long sizeBytes) {
        if (counters != null) {
            try {
                counters.mark();
            } catch (IllegalArgumentException e) {
                warning(e.getMessage());
                counters = null;
            }
        }
        if (procStat != null) {
            cpuBefore = readCpu();
        }
    }

    private CpuTimes readCpu() {
        try {
            return CpuTimes.read(procStat);
        } catch (IOException e) {
            if (!cpuUnreadable) {
                warning("--cpu_util: " + e.getMessage() + "; the CPU_Util column shows 0.00");
                cpuUnreadable = true;
            }
            return null;
        }
    }

    private String withCpuColumn(String row) {
        if (procStat == null) {
            return row;
        }
        CpuTimes after = readCpu();
        double percent = cpuBefore == null || after == null ? 0 : CpuTimes.utilization(cpuBefore, after);
        cpuPercent = percent;
        if (mode != OutputMode.NONE || !row.endsWith("\n")) {
            return row;
        }
        return row.substring(0, row.length() - 1) + "\t    " + CpuTimes.format(percent) + "\n";
    }

    /** The last row's {@code --cpu_util} figure (for {@code --out_json}), or null without one. */
    Double cpuUtilPercent() {
        return cpuPercent;
    }

    private void printCounters() {
        if (counters != null) {
            try {
                out.print(counters.differences());
            } catch (IllegalArgumentException e) {
                warning(e.getMessage());
                counters = null;
            }
        }
    }

    @Override
    public void path(PathReport report) {
        path = report;
    }

    @Override
    public void bandwidthParts(BandwidthResult local, BandwidthResult remote) {
        localPart = local;
        remotePart = remote;
    }

    @Override
    public void bandwidth(BandwidthResult result) {
        openTable();
        out.print(withCpuColumn(report.bandwidthRow(result, mode)));
        printCounters();
        if (reportBoth && localPart != null && !options.params().allSizes()) {
            out.print(report.bothSides(localPart, remotePart, mode));
        }
        localPart = null;
        remotePart = null;
        out.flush();
    }

    /**
     * The end of {@code --run_infinitely}. The client: perftest's "User stopped traffic" line, then the whole
     * run's row under its own title (perftest prints no summary; in a {@code --output} mode just its number).
     * The server: perftest's "Client closed connection" line, then the client's whole run when a jperf
     * client reported it.
     */
    @Override
    public void runStopped(BandwidthResult whole, long elapsedNanos, String why) {
        openTable();
        if (why != null) {
            out.print("\n User stopped traffic\n");
        } else {
            out.print(" Client closed connection\n");
        }
        if (whole != null) {
            if (mode == OutputMode.NONE) {
                out.print(PerftestTextReport.DASHED_LINE + (why != null
                        ? String.format(java.util.Locale.ROOT, " The whole run (%.1f s, stopped by %s):\n",
                        elapsedNanos / 1e9, PeerText.line(why))
                        : " The client's whole run:\n"));
            }
            out.print(report.bandwidthRow(whole, mode));
        }
        out.flush();
    }

    /**
     * perftest's order: the table's title, the unsorted list ({@code -U}), the sorted one ({@code -H}),
     * then (without {@code --output}) the title again above the row.
     */
    @Override
    public void latencySamples(long sizeBytes, LatencySamples samples) {
        if (!histogram && !unsorted) {
            return;
        }
        openTable();
        if (unsorted) {
            out.print(report.latencySamples(samples.unsortedUs()));
        }
        if (histogram) {
            out.print(report.latencySamples(samples.sortedKeptUs()));
        }
        out.print(report.latencyTableHeader(mode));
        out.flush();
    }

    @Override
    public void latency(LatencyResult result) {
        openTable();
        out.print(report.latencyRow(result, mode));
        printCounters();
        out.flush();
    }

    @Override
    public void warning(String message) {
        err.println("jperf: warning: " + PeerText.multiline(message));
        err.flush();
    }

    private void openTable() {
        if (!tableOpen) {
            String header = options.params().kind().isBandwidth()
                    ? report.bandwidthTableHeader(options.params().reportGbits() ? BandwidthResult.Unit.GBIT_PER_SEC
                    : BandwidthResult.Unit.MIB_PER_SEC, mode)
                    : report.latencyTableHeader(mode);
            if (procStat != null && options.params().kind().isBandwidth() && header.endsWith("\n")) {
                header = header.substring(0, header.length() - 1) + "    CPU_Util[%]\n"; // perftest's title
            }
            out.print(header);
            tableOpen = true;
        }
    }

    /** Closes the table once the test is over, then says which path the numbers came from. */
    void finish() {
        if (tableOpen) {
            out.print(report.tableFooter(mode));
        }
        if (mode == OutputMode.NONE && path != null) {
            out.print(PeerText.report(pathText(path)));
        }
        out.flush();
    }

    static String pathText(PathReport path) {
        StringBuilder sb = new StringBuilder();
        sb.append(' ').append(PathSummary.text(path.local())).append('\n');
        path.peer().ifPresent(p -> sb.append(" Peer ").append(PathSummary.text(p)).append('\n'));
        if (path.verdicts().isEmpty()) {
            sb.append(" Path checks: consistent").append(path.peer().isPresent() ? " (both ends)" : " (this end; the"
                    + " peer is not jperf, so its side was not checked)").append('\n');
        } else {
            for (Verdict v : path.verdicts()) {
                sb.append(" ").append(v).append("\n     Fix: ").append(v.fixHint()).append('\n');
            }
        }
        return sb.toString();
    }
}
