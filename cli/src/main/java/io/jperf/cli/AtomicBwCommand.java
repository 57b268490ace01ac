package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf atomic-bw}: atomic bandwidth, ib_atomic_bw's flags, output and wire protocol. */
@Command(name = "atomic-bw", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = AtomicBwCommand.SUMMARY)
final class AtomicBwCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Atomic bandwidth, like ib_atomic_bw: the client runs fetch-and-adds (or compare-and-swaps,"
            + " -A) on an 8-byte word of the server's buffer; same flags, numbers and wire protocol, so either end"
            + " may be perftest. RC only; 8-byte messages only. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    BwFlags bw;

    @Mixin
    BwReportFlags reporting;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE",
            description = "The atomic operation: FETCH_AND_ADD (default) or CMP_AND_SWAP; both ends must agree.")
    String atomicType;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "Outstanding atomic operations per QP (default: the device's max_qp_rd_atom).")
    int outstandingReads;

    @Override
    public Integer call() {
        common.bwReport = reporting;
        common.outstandingReads = outstandingReads;
        common.atomicType = atomicType;
        return PerfTestCommand.run(spec, TestKind.ATOMIC_BW, common, bw);
    }
}
