package io.jperf.path;

/** How much a {@link Verdict} matters. */
public enum Severity {
    /** Worth knowing; the test is expected to work as measured. */
    INFO,
    /** The result is probably not what the fabric can do (wrong queue, wrong NUMA node, smaller MTU). */
    WARNING,
    /** The test is likely to fail or to measure a different path than intended. */
    ERROR
}
