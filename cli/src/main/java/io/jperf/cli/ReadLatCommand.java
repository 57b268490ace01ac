package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf read-lat}: RDMA READ latency, ib_read_lat's flags, output and wire protocol. */
@Command(name = "read-lat", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = ReadLatCommand.SUMMARY)
final class ReadLatCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "RDMA READ latency (full round trip of one read at a time), like ib_read_lat: same flags,"
            + " numbers and wire protocol, so either end may be perftest. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    LatencyFlags samples;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "Outstanding RDMA READs per QP (default: the device's max_qp_rd_atom).")
    int outstandingReads;

    @Override
    public Integer call() {
        common.latency = samples;
        common.outstandingReads = outstandingReads;
        return PerfTestCommand.run(spec, TestKind.READ_LAT, common, null);
    }
}
