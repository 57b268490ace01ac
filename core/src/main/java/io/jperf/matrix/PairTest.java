package io.jperf.matrix;

/**
 * One test of a matrix: the client host's rail against the server host's rail, in a round.
 * Immutable.
 *
 * @param round      the round it runs in (0-based)
 * @param client     the client host's rank
 * @param server     the server host's rank
 * @param clientRail the client's rail index
 * @param serverRail the server's rail index
 */
public record PairTest(int round, int client, int server, int clientRail, int serverRail) {
    public PairTest {
        if (round < 0 || client < 0 || server < 0 || clientRail < 0 || serverRail < 0 || client == server) {
            throw new IllegalArgumentException("not a test: round " + round + ", hosts " + client + " -> " + server
                    + ", rails " + clientRail + " -> " + serverRail);
        }
    }
}
