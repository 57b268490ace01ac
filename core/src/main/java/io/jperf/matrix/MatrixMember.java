package io.jperf.matrix;

import io.jperf.engine.JperfServer;
import io.jperf.engine.JperfServer.Served;
import io.jperf.engine.ServeLimits;
import io.jperf.engine.PerfTest;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.PeerText;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What every member of a matrix runs, rank 0 included: {@code jperf serve} for the server ends of
 * its tests (on the device of the rail address each client connects to) and the {@link MatrixAgent}
 * for the client ends, both requiring the shared secret of the {@link ServeLimits}.
 *
 * <p>Lifecycle: {@link #start} listens on both ports and starts serving; {@link #awaitStop} waits
 * for the coordinator's stop; {@link #close} stops both. Threading: one daemon thread serves,
 * the agent's thread runs the client ends; events arrive from both, one line each.
 */
public final class MatrixMember implements AutoCloseable {
    private final JperfServer server;
    private final MatrixAgent agent;
    private final Thread serving;
    private volatile boolean closed;

    private MatrixMember(JperfServer server, MatrixAgent agent, Consumer<String> events) {
        this.server = server;
        this.agent = agent;
        this.serving = Thread.ofPlatform().name("jperf-matrix-serve").daemon().unstarted(() -> serveLoop(events));
    }

    /**
     * @param servePort {@code jperf serve}'s port (1..65535, as {@code -p})
     * @param agentPort the agent's port (0: any free one)
     * @param timeout   the bound on every wait within one served test
     * @throws IOException when the agent cannot listen; {@code jperf serve}'s failure to listen is a
     *                     {@link io.jperf.engine.ListenFailedException}
     */
    public static MatrixMember start(ClusterMembership membership, List<Rail> rails, int servePort, int agentPort,
                                     ServeLimits limits, Duration timeout, PairRunner runner, Consumer<String> events)
            throws IOException {
        TestOptions base = TestOptions.builder(TestKind.WRITE_BW).port(servePort).device(rails.getFirst().device())
                .build();
        JperfServer server = PerfTest.of(base).timeout(timeout).serveClients(limits);
        MatrixAgent agent;
        try {
            agent = MatrixAgent.start(membership, rails, agentPort, (InetAddress) null, limits, runner);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        server.onEvent(line -> events.accept("serve: " + PeerText.line(line)));
        agent.onEvent(line -> events.accept("agent: " + line));
        MatrixMember member = new MatrixMember(server, agent, events);
        member.serving.start();
        return member;
    }

    public int servePort() {
        return server.port();
    }

    public int agentPort() {
        return agent.port();
    }

    /** See {@link MatrixAgent#awaitStop}. */
    public boolean awaitStop(Duration idle) throws InterruptedException {
        return agent.awaitStop(idle);
    }

    private void serveLoop(Consumer<String> events) {
        while (!closed) {
            try {
                Optional<Served> next = server.serveNext(Duration.ofMillis(500));
                next.flatMap(Served::failure).ifPresent(f -> events.accept("serve: " + next.get().client().getHostAddress()
                        + ": " + PeerText.line(String.valueOf(f.getMessage()).lines().findFirst().orElse(""))));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        try {
            agent.close();
        } finally {
            try {
                serving.join(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server.close();
        }
    }
}
