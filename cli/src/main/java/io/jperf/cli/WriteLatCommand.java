package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jperf write-lat}: RDMA WRITE ping-pong latency, ib_write_lat's flags, output and wire protocol. */
@Command(name = "write-lat", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = VersionProvider.class,
        description = WriteLatCommand.SUMMARY)
final class WriteLatCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "RDMA WRITE latency (half round trip), like ib_write_lat: same flags, numbers and wire"
            + " protocol, so either end may be perftest. Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    LatencyFlags samples;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write the latency samples as an HdrHistogram log (one interval per size, nanoseconds).")
    Path hlog;

    @Override
    public Integer call() {
        common.latency = samples;
        if (hlog != null) {
            common.hlogFile = hlog;
        }
        return PerfTestCommand.run(spec, TestKind.WRITE_LAT, common, null);
    }
}
