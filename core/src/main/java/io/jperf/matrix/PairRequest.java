package io.jperf.matrix;

import java.time.Duration;
import java.util.Objects;

/**
 * What the coordinator asks an agent to run: a client test from one of its rails to a server
 * host's {@code jperf serve}, on the server's rail address. Immutable.
 *
 * @param bandwidth     write-bw (true) or write-lat
 * @param size          message size in bytes
 * @param durationSeconds seconds the test measures ({@code -D})
 * @param trafficClass  the traffic class
 * @param warmup        the data path's warm-up
 * @param timeout       the bound on every wait within the test
 * @param clientRail    the agent's rail index
 * @param serverRank    the server host's rank
 * @param serverRail    the server's rail index
 * @param serverAddress where the server's {@code jperf serve} is reached for this rail: its rail's IP
 *                      address, or its host name when the rail has none
 * @param serverPort    the server's {@code jperf serve} port
 */
public record PairRequest(boolean bandwidth, long size, int durationSeconds, int trafficClass, Duration warmup,
                          Duration timeout, int clientRail, int serverRank, int serverRail, String serverAddress,
                          int serverPort) {
    public PairRequest {
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(serverAddress, "serverAddress");
    }

    /** The longest this test may take, every wait included: what the coordinator waits for its answer. */
    public Duration bound() {
        return timeout.multipliedBy(2).plus(warmup.multipliedBy(11)).plusSeconds(durationSeconds);
    }
}
