package io.jperf.engine;

import io.jperf.result.BandwidthResult;
import io.jperf.result.EndpointInfo;
import io.jperf.result.LatencyResult;
import io.jperf.result.TestHeader;
import io.jperf.stats.LatencySamples;

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

    /**
     * One message size's measurement starts now, after any warm-up and the peers' start handshake (e.g. to read
     * counters or CPU times just before it). Not called on a unidirectional bandwidth server, which measures
     * nothing.
     */
    default void measuring(long sizeBytes) {
    }

    /** One message size's bandwidth result (on a unidirectional server: the client's, at the end). */
    default void bandwidth(BandwidthResult result) {
    }

    /**
     * Both parts of a bidirectional bandwidth result, before {@link #bandwidth} hears their sum: what
     * this end measured and what the peer reported (perftest's {@code --report-both} prints them).
     */
    default void bandwidthParts(BandwidthResult local, BandwidthResult remote) {
    }

    /**
     * One message size's raw latency samples, before {@link #latency} hears its figures (perftest's
     * {@code -H} and {@code -U} print them). Not called for a timed run ({@code -D}), as perftest prints
     * none there. {@code samples} is valid only during the call.
     */
    default void latencySamples(long sizeBytes, LatencySamples samples) {
    }

    /** One message size's latency result. */
    default void latency(LatencyResult result) {
    }

    /**
     * A {@code --run_infinitely} run ended. On the client: {@code whole} is the whole run's result (its
     * rows, one per interval, came through {@link #bandwidth}), {@code elapsedNanos} its length and
     * {@code why} what stopped it (e.g. {@code "SIGINT"}). On the server: {@code whole} is the client's
     * report of its whole run, or null when the client (perftest) sent none, {@code elapsedNanos} 0 and
     * {@code why} null: the client closed the connection.
     */
    default void runStopped(BandwidthResult whole, long elapsedNanos, String why) {
    }

    /** Something the user should know that does not stop the test. */
    default void warning(String message) {
    }

    /** Progress through the test: {@code done} of {@code total} steps (message sizes, or seconds of -D). */
    default void progress(long done, long total) {
    }
}
