package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf atomic-lat}: atomic latency, ib_atomic_lat's flags, output and wire protocol. */
@Command(name = "atomic-lat", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = AtomicLatCommand.SUMMARY)
final class AtomicLatCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Atomic latency (full round trip of one fetch-and-add or compare-and-swap at a time), like"
            + " ib_atomic_lat: same flags, numbers and wire protocol, so either end may be perftest. RC only;"
            + " 8-byte messages only. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    LatencyFlags samples;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE",
            description = "The atomic operation: FETCH_AND_ADD (default) or CMP_AND_SWAP; both ends must agree.")
    String atomicType;

    @Option(names = {"-o", "--outs"}, paramLabel = "N",
            description = "Outstanding atomic operations per QP (default: the device's max_qp_rd_atom).")
    int outstandingReads;

    @Override
    public Integer call() {
        common.latency = samples;
        common.outstandingReads = outstandingReads;
        common.atomicType = atomicType;
        return PerfTestCommand.run(spec, TestKind.ATOMIC_LAT, common, null);
    }
}
