package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf read-bw}: RDMA READ bandwidth, ib_read_bw's flags, output and wire protocol. */
@Command(name = "read-bw", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = ReadBwCommand.SUMMARY)
final class ReadBwCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "RDMA READ bandwidth, like ib_read_bw: the client reads the server's buffer; same flags,"
            + " numbers and wire protocol, so either end may be perftest. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    BwFlags bw;

    @Mixin
    BwReportFlags reporting;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "Outstanding RDMA READs per QP (default: the device's max_qp_rd_atom).")
    int outstandingReads;

    @Override
    public Integer call() {
        common.bwReport = reporting;
        common.outstandingReads = outstandingReads;
        return PerfTestCommand.run(spec, TestKind.READ_BW, common, bw);
    }
}
