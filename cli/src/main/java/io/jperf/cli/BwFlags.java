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

    @Option(names = {"-N", "--noPeak"}, description = "Do not measure the peak bandwidth (its column prints 0).")
    boolean noPeak;

    @Option(names = {"-w", "--limit_bw"}, paramLabel = "BW", description = "Fail (exit 1) unless the average"
            + " bandwidth of some size reaches BW, in the report's unit (MiB/s, or Gb/s with --report_gbits); checked"
            + " by the client and by both ends with -b.")
    Double limitBw;

    @Option(names = {"-y", "--limit_msgrate"}, paramLabel = "MPPS", description = "Fail (exit 1) unless the message"
            + " rate of some size reaches MPPS (Mpps); checked like -w.")
    Double limitMsgRate;

    @Option(names = "--mr_per_qp", description = "One memory region per QP (with -q), each QP's work requests and"
            + " keys its own, as perftest.")
    boolean mrPerQp;

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
        b.noPeak(noPeak);
        b.mrPerQp(mrPerQp);
    }
}
