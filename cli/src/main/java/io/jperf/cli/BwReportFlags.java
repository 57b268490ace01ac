package io.jperf.cli;

import picocli.CommandLine.Option;

/**
 * perftest's reporting flags of the bandwidth test commands (write-bw, read-bw, atomic-bw, send-bw), kept
 * apart from {@link BwFlags} because sweep shares those and has no use for these.
 */
final class BwReportFlags {
    @Option(names = "--report-both", description = "With -b (and without -a): after the row of both directions,"
            + " print this end's and the peer's own rows ('Local results', 'Remote results'), as perftest.")
    boolean reportBoth;

    @Option(names = "--run_infinitely", description = "Write until stopped (Ctrl-C or SIGTERM), one row every -D"
            + " seconds (default 5), no peak, as perftest; then the whole run's row. Give it to both ends.")
    boolean runInfinitely;

    @Option(names = "--cpu_util", description = "With -D: a CPU_Util[%%] column, the user time of all CPUs in"
            + " user + idle time (/proc/stat) during the measurement, as perftest; without -D a warning says"
            + " there is none.")
    boolean cpuUtil;
}
