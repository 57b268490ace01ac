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
import io.jperf.wire.PeerText;

import java.io.PrintWriter;
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

    /** @param run named in the first line of the header */
    PerftestPrinter(TestOptions options, RunInfo run, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.run = run;
        this.out = out;
        this.err = err;
        this.mode = options.outputMode();
    }

    @Override
    public void connected(TestHeader header, List<EndpointInfo> local, List<EndpointInfo> remote) {
        if (mode == OutputMode.NONE) {
            out.println(" " + PeerText.line(run.line()));
            out.print(report.header(header));
            local.forEach(e -> out.print(report.addressLines(e, true)));
            remote.forEach(e -> out.print(report.addressLines(e, false)));
        }
        out.flush();
    }

    @Override
    public void path(PathReport report) {
        path = report;
    }

    @Override
    public void bandwidth(BandwidthResult result) {
        openTable();
        out.print(report.bandwidthRow(result, mode));
        out.flush();
    }

    @Override
    public void latency(LatencyResult result) {
        openTable();
        out.print(report.latencyRow(result, mode));
        out.flush();
    }

    @Override
    public void warning(String message) {
        err.println("jperf: warning: " + PeerText.multiline(message));
        err.flush();
    }

    private void openTable() {
        if (!tableOpen) {
            out.print(options.kind().isBandwidth()
                    ? report.bandwidthTableHeader(options.reportGbits() ? BandwidthResult.Unit.GBIT_PER_SEC
                    : BandwidthResult.Unit.MIB_PER_SEC, mode)
                    : report.latencyTableHeader(mode));
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
