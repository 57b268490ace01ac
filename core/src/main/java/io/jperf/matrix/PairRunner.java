package io.jperf.matrix;

/**
 * Runs the client end of one matrix test on this host. The production runner is
 * {@link PerfTestRunner} (the write-test engine against the server's {@code jperf serve}); a test
 * may give the agent another to check the protocol. Called from the agent's thread, one test at a
 * time.
 */
@FunctionalInterface
public interface PairRunner {
    /**
     * @param request   what the coordinator asked for
     * @param localRail this host's rail the request names
     * @return the figure or the failure; a runner does not throw for a test that failed
     */
    PairOutcome run(PairRequest request, Rail localRail);
}
