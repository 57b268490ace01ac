package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf write-bw}: RDMA WRITE bandwidth, ib_write_bw's flags, output and wire protocol. */
@Command(name = "write-bw", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = WriteBwCommand.SUMMARY)
final class WriteBwCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "RDMA WRITE bandwidth, like ib_write_bw: same flags, numbers and wire protocol, so either end"
            + " may be perftest. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    BwFlags bw;

    @Mixin
    BwReportFlags reporting;

    @Override
    public Integer call() {
        common.bwReport = reporting;
        return PerfTestCommand.run(spec, TestKind.WRITE_BW, common, bw);
    }
}
