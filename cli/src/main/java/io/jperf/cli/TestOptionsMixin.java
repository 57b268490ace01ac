package io.jperf.cli;

import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;

/**
 * The perftest flags write-bw and write-lat share. Unset options stay null so that
 * {@link TestOptions.Builder} applies perftest's per-test defaults.
 */
final class TestOptionsMixin {
    @Parameters(index = "0", arity = "0..1", paramLabel = "HOST",
            description = "The server to connect to. Without it, this side is the server and waits for one client.")
    String host;

    @Mixin
    TestParameterFlags params;

    @Option(names = {"-f", "--margin"}, paramLabel = "SECONDS", description = "With -D: the warm-up and cool-down"
            + " left out of the measurement at each end (default: a quarter of -D; less than half of -D).")
    Integer margin;

    @Option(names = "--perform_warm_up", description = "Accepted for perftest compatibility: jperf warms the data"
            + " path up by default (see --warmup).")
    boolean performWarmUp;

    @Option(names = "--use_old_post_send", description = "Accepted for perftest compatibility: jperf always posts"
            + " with ibv_post_send.")
    boolean useOldPostSend;

    @Option(names = "--pin_cores", paramLabel = "CPU", description = "perftest's CPU affinity, for one CPU: the"
            + " same as --cpu CPU (a list or range is refused: pin the JVM with taskset -c LIST).")
    String pinCores;

    @Option(names = "--output", paramLabel = "WHAT",
            description = "Print only one number: bandwidth or message_rate (write-bw), latency (write-lat).")
    String output;

    @Option(names = "--out_json", description = "Also write perftest's JSON report (perftest's keys, the last size)"
            + " to --out_json_file.")
    boolean outJson;

    @Option(names = "--out_json_file", paramLabel = "FILE",
            description = "perftest's JSON report file (default perftest_out.json).")
    Path outJsonFile;

    @Option(names = "--jperf-json", paramLabel = "FILE", description = "Also write jperf's JSON record (every size,"
            + " both ends' QPs, the path and its verdicts, version, command line, host) to FILE.")
    Path jperfJson;

    @Option(names = "--json", description = "Print jperf's JSON record on stdout instead of perftest's text.")
    boolean json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Write the results as CSV.")
    Path csv;

    @Option(names = "--loopback",
            description = "Run server and client in this process (the server on --peer-dev, default the same device).")
    boolean loopback;

    @Option(names = "--peer-dev", paramLabel = "DEV", description = "With --loopback: the server's device.")
    String peerDevice;

    @Option(names = {"-W", "--report-counters"}, paramLabel = "LIST", description = "After each row, the change of"
            + " these counters of the device's port during its measurement, as perftest: a comma-separated list of"
            + " files under /sys/class/infiniband/DEV/ports/PORT/, e.g."
            + " counters/port_xmit_data,hw_counters/out_of_buffer.")
    String reportCounters;

    @Mixin
    RunFlags run;

    @Option(names = "--use_hugepages", description = "Take the test buffers from huge pages (mmap MAP_HUGETLB,"
            + " rounded up to whole huge pages), as perftest; fails (exit 4) when too few are free (vm.nr_hugepages).")
    boolean useHugepages;

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "Bound on connecting, every control exchange, and a stalled data path (default 60).")
    Integer timeoutSeconds;

    /** Set by the bandwidth test commands: their --report-both and --run_infinitely (null for the others). */
    BwReportFlags bwReport;

    /** Set by the latency commands: their -H and -U (null for the bandwidth commands). */
    LatencyFlags latency;

    /** Set by write-lat's --hlog. */
    Path hlogFile;

    /** Set by the read commands' -o (0: the device's maximum). */
    int outstandingReads;

    /** Set by the atomic commands' -A (null: perftest's default, FETCH_AND_ADD). */
    String atomicType;

    /** Set by the send commands' -r (null: perftest's default). */
    Integer rxDepth;

    /** The validated options, or an {@code OptionsException} naming the bad flag. */
    TestOptions toOptions(TestKind kind, BwFlags bw) {
        TestOptions.Builder b = TestOptions.builder(kind);
        if (host != null) {
            b.serverHost(host);
        }
        params.applyTo(b);
        if (output != null) {
            b.outputMode(OutputMode.parse(output));
        }
        b.json(outJson);
        if (outJsonFile != null) {
            b.jsonFile(outJsonFile);
        }
        if (csv != null) {
            b.csvFile(csv);
        }
        b.loopback(loopback);
        if (hlogFile != null) {
            b.hlogFile(hlogFile);
        }
        b.outstandingReads(outstandingReads);
        if (atomicType != null) {
            b.atomicType(io.jperf.options.AtomicType.parse(atomicType));
        }
        if (rxDepth != null) {
            b.rxDepth(rxDepth);
        }
        if (margin != null) {
            b.margin(margin);
        }
        b.hugePages(useHugepages);
        if (bw != null) {
            bw.applyTo(b);
        }
        if (bwReport != null) {
            b.runInfinitely(bwReport.runInfinitely);
        }
        return b.build();
    }
}
