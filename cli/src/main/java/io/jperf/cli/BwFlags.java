package io.jperf.cli;

import io.jperf.options.TestOptions;
import picocli.CommandLine.Option;

/** The flags only write-bw has. */
final class BwFlags {
    @Option(names = {"-q", "--qp"}, paramLabel = "N", description = "Number of QPs 1..16384 (default 1).")
    Integer numQps;

    @Option(names = {"-b", "--bidirectional"}, description = "Both ends write at the same time; the sum is reported.")
    boolean bidirectional;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", description = "Send queue depth (default 128, at most -n).")
    Integer txDepth;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N",
            description = "Work requests per post call; -n must be a multiple (default 1).")
    Integer postList;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N",
            description = "One completion every N work requests, 1..1024 (default 100; 1 above 8 KiB unless given).")
    Integer cqModeration;

    @Option(names = "--report_gbits", description = "Report Gb/s (10^9 bit) instead of MiB/s.")
    boolean reportGbits;

    void applyTo(TestOptions.Builder b) {
        if (numQps != null) {
            b.numQps(numQps);
        }
        b.bidirectional(bidirectional);
        if (txDepth != null) {
            b.txDepth(txDepth);
        }
        if (postList != null) {
            b.postList(postList);
        }
        if (cqModeration != null) {
            b.cqModeration(cqModeration);
        }
        b.reportGbits(reportGbits);
    }
}
