package io.jperf.cli;

import io.jperf.options.TestKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code jperf send-bw}: SEND bandwidth, ib_send_bw's flags, output and wire protocol. */
@Command(name = "send-bw", mixinStandardHelpOptions = true, sortOptions = false,
        description = SendBwCommand.SUMMARY)
final class SendBwCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "SEND bandwidth, like ib_send_bw: the client sends, the server posts receives, measures what"
            + " arrives and reports it; same flags, numbers and wire protocol, so either end may be perftest."
            + " RC only; unidirectional only (no -b yet). Without HOST this side is the server.";

    @Spec
    CommandSpec spec;

    @Mixin
    TestOptionsMixin common;

    @Mixin
    BwFlags bw;

    @Mixin
    BwReportFlags reporting;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N",
            description = "Receive work requests kept posted per QP (default 512, at most -n).")
    Integer rxDepth;

    @Override
    public Integer call() {
        common.bwReport = reporting;
        common.rxDepth = rxDepth;
        return PerfTestCommand.run(spec, TestKind.SEND_BW, common, bw);
    }
}
