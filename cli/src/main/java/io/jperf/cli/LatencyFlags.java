package io.jperf.cli;

import picocli.CommandLine.Option;

/**
 * perftest's sample lists of the latency tests. perftest's help spells {@code -H} as
 * {@code --report-histogram}, but its parser knows the long name {@code --report-histogrm} (sic) only:
 * jperf takes what the parser takes. perftest's help says {@code -U} implies {@code -H}; its parser
 * does not: {@code -U} prints the unsorted list only, {@code -H -U} both.
 */
final class LatencyFlags {
    @Option(names = {"-H", "--report-histogrm"}, description = "Print every sample of each size, sorted, without"
            + " the 2 largest (perftest's list: '#, usec' then 'N, VALUE'), before its row; not with -D, as perftest.")
    boolean histogram;

    @Option(names = {"-U", "--report-unsorted"}, description = "Print every sample of each size in the order"
            + " measured (perftest's list), before its row; not with -D, as perftest.")
    boolean unsorted;
}
