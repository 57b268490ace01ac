package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code jperf send-lat}: SEND ping-pong latency, ib_send_lat's flags, output and wire protocol. */
@Command(name = "send-lat", mixinStandardHelpOptions = true, sortOptions = false,
        description = SendLatCommand.SUMMARY)
final class SendLatCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "SEND latency (half round trip of a send ping-pong, the client first), like ib_send_lat:"
            + " same flags, numbers and wire protocol, so either end may be perftest. RC only. Without HOST this"
            + " side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    LatencyFlags samples;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N",
            description = "Receive work requests kept posted (default 512, at most -n).")
    Integer rxDepth;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write the latency samples as an HdrHistogram log (one interval per size, nanoseconds).")
    Path hlog;

    @Override
    public Integer call() {
        common.latency = samples;
        common.rxDepth = rxDepth;
        if (hlog != null) {
            common.hlogFile = hlog;
        }
        return PerfTestCommand.run(spec, TestKind.SEND_LAT, common, null);
    }
}
