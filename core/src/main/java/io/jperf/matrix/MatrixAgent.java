package io.jperf.matrix;

import io.jperf.engine.ResourceEstimate;
import io.jperf.engine.ServeAuth;
import io.jperf.engine.ServeLimits;
import io.jperf.engine.TestFailedException;
import io.jperf.options.OptionsException;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.ControlChannel.ControlListener;
import io.jperf.wire.JperfExtension;
import io.jperf.wire.PerftestVersion;
import io.jperf.wire.PeerText;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A member's agent: runs the client end of a matrix test when the coordinator asks (the server
 * end is the member's {@code jperf serve}). It speaks the jperf control exchange on its own port:
 * the version exchange, then one jperf extension request, authenticated with the shared secret
 * exactly as {@code jperf serve} authenticates its clients ({@link ServeAuth}, HMAC-SHA256
 * challenge-response, both ends proving the secret) before anything of the request is used.
 *
 * <p>Within its {@link ServeLimits}, like {@code jperf serve}:
 * <ul>
 * <li>a secret is required; a connection that does not prove it is refused and nothing runs;</li>
 * <li>a connection has {@link #requestTime} from connecting until its request is authenticated,
 * then the test's own bound ({@link PairRequest#bound()}); a slow or silent one is dropped;</li>
 * <li>a test beyond the budget (memory, duration) is refused before it runs;</li>
 * <li>a test runs only against another member (its rank, and an IP address or that member's
 * host name), never against an address the request makes up from nothing;</li>
 * <li>one request at a time: the coordinator gives a host at most one test per round.</li>
 * </ul>
 *
 * <p>Lifecycle: {@link #start} listens and accepts on a daemon thread; {@link #awaitStop} waits
 * for the coordinator's {@code stop}; {@link #close} stops listening. Threading: the accepting
 * thread handles each connection in turn and calls the {@link PairRunner}.
 */
public final class MatrixAgent implements AutoCloseable {
    /** How long a connection may take from connecting until its request is authenticated. */
    public static final Duration REQUEST_TIME = Duration.ofSeconds(10);
    private static final Duration ACCEPT_POLL = Duration.ofMillis(500);

    private final ClusterMembership membership;
    private final List<Rail> rails;
    private final ServeLimits limits;
    private final PairRunner runner;
    private final ControlListener listener;
    private final Duration requestTime;
    private final Thread acceptor;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile long lastRequest = System.nanoTime();
    private volatile boolean closed;
    private volatile Consumer<String> events = e -> { };

    private MatrixAgent(ClusterMembership membership, List<Rail> rails, ServeLimits limits, PairRunner runner,
                       ControlListener listener, Duration requestTime) {
        this.membership = membership;
        this.rails = List.copyOf(rails);
        this.limits = limits;
        this.runner = runner;
        this.listener = listener;
        this.requestTime = requestTime;
        this.acceptor = Thread.ofPlatform().name("jperf-matrix-agent").daemon().unstarted(this::acceptLoop);
    }

    /**
     * Listens on {@code port} ({@code bind} null: every address) and starts accepting.
     *
     * @throws IllegalArgumentException when the limits carry no secret or there is no rail
     * @throws IOException              when it cannot listen there
     */
    public static MatrixAgent start(ClusterMembership membership, List<Rail> rails, int port, InetAddress bind,
                                    ServeLimits limits, PairRunner runner) throws IOException {
        return start(membership, rails, port, bind, limits, runner, REQUEST_TIME);
    }

    /** As {@link #start(ClusterMembership, List, int, InetAddress, ServeLimits, PairRunner)}, with a request time. */
    static MatrixAgent start(ClusterMembership membership, List<Rail> rails, int port, InetAddress bind,
                             ServeLimits limits, PairRunner runner, Duration requestTime) throws IOException {
        Objects.requireNonNull(membership, "membership");
        Objects.requireNonNull(runner, "runner");
        if (limits.authSecret().isEmpty()) {
            throw new IllegalArgumentException("a matrix agent runs tests on request: it needs the shared secret");
        }
        if (rails.isEmpty()) {
            throw new IllegalArgumentException("a matrix agent needs at least one rail");
        }
        MatrixAgent agent = new MatrixAgent(membership, rails, limits, runner, ControlChannel.listen(port, bind),
                requestTime);
        agent.acceptor.start();
        return agent;
    }

    /** The TCP port it listens on. */
    public int port() {
        return listener.localPort();
    }

    /** Where to report refusals and dropped connections: one line each, from the agent's thread. */
    public MatrixAgent onEvent(Consumer<String> sink) {
        this.events = Objects.requireNonNull(sink, "sink");
        return this;
    }

    /**
     * Waits until the coordinator said stop, or until no authenticated request came for {@code idle}.
     *
     * @return true when stopped by the coordinator, false at the idle bound
     */
    public boolean awaitStop(Duration idle) throws InterruptedException {
        while (true) {
            long quiet = System.nanoTime() - lastRequest;
            long left = idle.toNanos() - quiet;
            if (left <= 0) {
                return stopped.getCount() == 0;
            }
            if (stopped.await(Math.min(left, Duration.ofSeconds(1).toNanos()), TimeUnit.NANOSECONDS)) {
                return true;
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        try {
            listener.close();
        } finally {
            try {
                acceptor.join(Duration.ofSeconds(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            ControlChannel channel;
            try {
                channel = listener.poll(ACCEPT_POLL);
            } catch (IOException e) {
                if (!closed) {
                    events.accept("accepting a connection failed: " + e.getMessage());
                    sleep(Duration.ofMillis(100));
                }
                continue;
            }
            if (channel != null) {
                handle(channel);
            }
        }
    }

    private void handle(ControlChannel channel) {
        String who = channel.remoteAddress().getHostAddress();
        try (channel) {
            channel.setReadTimeout(requestTime);
            channel.deadline(System.nanoTime() + requestTime.toNanos());
            PerftestVersion version = channel.exchangeVersion(PerftestVersion.ADVERTISED);
            if (!version.isJperf()) {
                events.accept("refused " + who + ": perftest " + version.text() + " is not a jperf matrix coordinator");
                return;
            }
            JperfExtension.respond(channel, request -> answer(channel, request, who), "jperf matrix agent request");
        } catch (UncheckedIOException e) {
            events.accept("dropped " + who + ": " + PeerText.line(String.valueOf(e.getCause().getMessage())));
        } catch (IOException | RuntimeException e) {
            events.accept("dropped " + who + ": " + PeerText.line(String.valueOf(e.getMessage())));
        }
    }

    private Map<String, String> answer(ControlChannel channel, Map<String, String> request, String who) {
        Map<String, String> proof;
        try {
            proof = ServeAuth.challenge(channel, limits.authSecret().orElseThrow());
        } catch (TestFailedException e) {
            events.accept("refused " + who + ": " + e.getMessage());
            return Map.of(ServeAuth.REFUSAL, AgentProtocol.escape(e.getMessage()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lastRequest = System.nanoTime();
        Map<String, String> answer = new LinkedHashMap<>();
        try {
            String op = String.valueOf(request.get(AgentProtocol.OP));
            switch (op) {
                case AgentProtocol.DESCRIBE -> answer.putAll(AgentProtocol.described(membership.rank(), membership.size(),
                        rails));
                case AgentProtocol.STOP -> {
                    answer.put(AgentProtocol.STOPPED, "true");
                    stopped.countDown();
                }
                case AgentProtocol.RUN -> {
                    PairRequest r = AgentProtocol.request(request);
                    check(r);
                    channel.deadline(System.nanoTime() + r.bound().plus(requestTime).toNanos());
                    answer.putAll(AgentProtocol.outcome(runner.run(r, rails.get(r.clientRail()))));
                    lastRequest = System.nanoTime();
                }
                default -> throw new OptionsException("unknown " + AgentProtocol.OP + " '" + PeerText.line(op)
                        + "' (describe, run or stop)");
            }
        } catch (OptionsException e) {
            events.accept("refused " + who + ": " + e.getMessage());
            answer.put(ServeAuth.REFUSAL, AgentProtocol.escape("the jperf matrix agent on " + membership.self()
                    + " refuses: " + e.getMessage()));
        }
        answer.putAll(proof);
        return answer;
    }

    /** The request's target is another member, its rail one of ours, and the test within the budget. */
    private void check(PairRequest r) {
        if (r.serverRank() >= membership.size() || r.serverRank() == membership.rank()) {
            throw new OptionsException("the server rank " + r.serverRank() + " is not another member (this is rank "
                    + membership.rank() + " of " + membership.size() + ")");
        }
        if (r.clientRail() >= rails.size()) {
            throw new OptionsException("rail " + r.clientRail() + " does not exist here (" + rails.size() + " rails)");
        }
        String server = r.serverAddress();
        boolean memberName = server.equals(membership.hosts().get(r.serverRank()));
        if (!memberName) {
            try {
                InetAddress.ofLiteral(server);
            } catch (IllegalArgumentException e) {
                throw new OptionsException("the server address '" + PeerText.line(server) + "' is neither an IP address"
                        + " nor member " + r.serverRank() + "'s host name (an agent resolves no names a request makes up)");
            }
        }
        if (Duration.ofSeconds(r.durationSeconds()).compareTo(limits.maxDuration()) > 0) {
            throw new OptionsException("-D " + r.durationSeconds() + " is beyond this agent's --max-duration "
                    + limits.maxDuration().toSeconds() + " s");
        }
        TestOptions o = TestOptions.builder(r.bandwidth() ? TestKind.WRITE_BW : TestKind.WRITE_LAT).size(r.size())
                .durationSeconds(r.durationSeconds()).serverHost(server).build();
        long need = ResourceEstimate.of(o.params()).totalBytes();
        if (need > limits.maxMemoryBytes()) {
            throw new OptionsException("the test needs " + ResourceEstimate.format(need) + ", beyond this agent's"
                    + " --max-memory " + ResourceEstimate.format(limits.maxMemoryBytes()));
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
