package io.jperf.engine;

import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;

import java.util.List;

/**
 * Hears a running write test, e.g. to print perftest's output as it happens. Called on the thread
 * running the test, never from the hot loop. Every method has an empty default.
 */
public interface TestListener {
    /** A listener that ignores everything. */
    TestListener NONE = new TestListener() {
    };

    /** Both ends are connected: the header facts and the QP ends of both sides. */
    default void connected(TestHeader header, List<EndpointInfo> local, List<EndpointInfo> remote) {
    }

    /** The path this end runs on (and the peer's, from a jperf peer), with its verdicts; before measuring. */
    default void path(PathReport path) {
    }

    /** One message size's bandwidth result (on a unidirectional server: the client's, at the end). */
    default void bandwidth(BandwidthResult result) {
    }

    /** One message size's latency result. */
    default void latency(LatencyResult result) {
    }

    /** Something the user should know that does not stop the test. */
    default void warning(String message) {
    }

    /** Progress through the test: {@code done} of {@code total} steps (message sizes, or seconds of -D). */
    default void progress(long done, long total) {
    }
}
