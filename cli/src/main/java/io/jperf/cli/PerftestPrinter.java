package io.jperf.cli;

import io.jperf.engine.TestListener;
import io.jperf.options.OutputMode;
import io.jperf.options.TestOptions;
import io.jperf.report.PerftestTextReport;
import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;

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

    PerftestPrinter(TestOptions options, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.out = out;
        this.err = err;
        this.mode = options.outputMode();
    }

    @Override
    public void connected(TestHeader header, List<EndpointInfo> local, List<EndpointInfo> remote) {
        if (mode == OutputMode.NONE) {
            out.print(report.header(header));
            local.forEach(e -> out.print(report.addressLines(e, true)));
            remote.forEach(e -> out.print(report.addressLines(e, false)));
        }
        out.flush();
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
        err.println("jperf: warning: " + message);
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

    /** Closes the table once the test is over. */
    void finish() {
        if (tableOpen) {
            out.print(report.tableFooter(mode));
            out.flush();
        }
    }
}
