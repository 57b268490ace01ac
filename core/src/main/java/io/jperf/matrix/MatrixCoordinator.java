package io.jperf.matrix;

import io.jperf.JperfException;
import io.jperf.engine.AuthSecret;
import io.jperf.report.JsonReader;
import io.jperf.report.JsonWriter;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Rank 0's work: asks every member's agent to describe itself (its rails), runs the
 * {@link Schedule} round by round — each test sent to its client host's agent, the round's tests at
 * once, the next round when all have answered — records every outcome in a {@link ResultMatrix}
 * and streams it, with both ends' path records and verdicts, to the points sink, then tells every
 * agent to stop. A member whose agent did not answer at the start takes part in no test: its tests
 * are failures naming it (a host that is down is what a qualification must find).
 *
 * <p>Lifecycle: build, {@link #run()} once. Threading: {@link #run()} blocks; a round's tests run
 * on virtual threads; the event and points sinks are called from those threads, one call at a
 * time.
 */
public final class MatrixCoordinator {

    /**
     * Where each member's agent listens, by rank.
     *
     * @param host      the member's host name or address
     * @param port      its agent's port
     * @param servePort its {@code jperf serve}'s port
     */
    public record AgentAddress(String host, int port, int servePort) {
    }

    /**
     * What every test runs with.
     *
     * @param bandwidth       write-bw (true) or write-lat
     * @param size            message size in bytes
     * @param durationSeconds {@code -D}
     * @param trafficClass    the traffic class
     * @param warmup          the data path's warm-up
     * @param timeout         the bound on every wait within one test
     */
    public record TestSettings(boolean bandwidth, long size, int durationSeconds, int trafficClass, Duration warmup,
                               Duration timeout) {
    }

    private final ClusterMembership membership;
    private final List<AgentAddress> agents;
    private final AgentClient client;
    private final Pattern pattern;
    private final RailMode railMode;
    private final TestSettings settings;
    private final Duration startTimeout;
    private final Consumer<String> events;
    private final Consumer<String> points;
    /** Why a member's agent did not describe itself, by rank. */
    private final Map<Integer, String> unanswered = new java.util.concurrent.ConcurrentHashMap<>();

    private MatrixCoordinator(Builder b) {
        this.membership = b.membership;
        this.agents = List.copyOf(b.agents);
        this.client = new AgentClient(b.secret, b.connectTimeout);
        this.pattern = b.pattern;
        this.railMode = b.railMode;
        this.settings = b.settings;
        this.startTimeout = b.startTimeout;
        this.events = b.events;
        this.points = b.points;
    }

    public static Builder builder(ClusterMembership membership, AuthSecret secret, TestSettings settings) {
        return new Builder(membership, secret, settings);
    }

    /** Configures a {@link MatrixCoordinator}; not thread-safe. */
    public static final class Builder {
        private final ClusterMembership membership;
        private final AuthSecret secret;
        private final TestSettings settings;
        private List<AgentAddress> agents;
        private Pattern pattern = Pattern.ALL_PAIRS;
        private RailMode railMode = RailMode.PER_RAIL;
        private Duration startTimeout = Duration.ofSeconds(120);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Consumer<String> events = e -> { };
        private Consumer<String> points = p -> { };

        private Builder(ClusterMembership membership, AuthSecret secret, TestSettings settings) {
            this.membership = Objects.requireNonNull(membership, "membership");
            this.secret = Objects.requireNonNull(secret, "secret");
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        /** Every member's agent at its host name and {@code port}, its {@code jperf serve} at {@code servePort}. */
        public Builder ports(int port, int servePort) {
            this.agents = membership.hosts().stream().map(h -> new AgentAddress(h, port, servePort)).toList();
            return this;
        }

        /** Each member's agent at its own address, by rank (e.g. several agents on one test host). */
        public Builder agents(List<AgentAddress> value) {
            if (value.size() != membership.size()) {
                throw new IllegalArgumentException(value.size() + " agent addresses for " + membership.size() + " members");
            }
            this.agents = List.copyOf(value);
            return this;
        }

        public Builder pattern(Pattern value) {
            this.pattern = Objects.requireNonNull(value);
            return this;
        }

        public Builder railMode(RailMode value) {
            this.railMode = Objects.requireNonNull(value);
            return this;
        }

        /** How long to keep trying each agent at the start (the scheduler starts members at about the same time). */
        public Builder startTimeout(Duration value) {
            this.startTimeout = Objects.requireNonNull(value);
            return this;
        }

        /** How long one connection to an agent may take to open (during the rounds). */
        public Builder connectTimeout(Duration value) {
            this.connectTimeout = Objects.requireNonNull(value);
            return this;
        }

        /** Progress lines: one per member described, one per round. */
        public Builder events(Consumer<String> sink) {
            this.events = Objects.requireNonNull(sink);
            return this;
        }

        /** One JSON line per test as it ends: hosts, rails, figure or error, both ends' path records and verdicts. */
        public Builder points(Consumer<String> sink) {
            this.points = Objects.requireNonNull(sink);
            return this;
        }

        public MatrixCoordinator build() {
            if (agents == null) {
                ports(18516, 18515);
            }
            return new MatrixCoordinator(this);
        }
    }

    /**
     * Runs the matrix.
     *
     * @return every test's outcome
     * @throws io.jperf.engine.TestFailedException when the coordinator's own agent (rank 0) does not answer,
     *         or members disagree on the membership
     */
    public ResultMatrix run() throws InterruptedException {
        int n = membership.size();
        List<Optional<AgentProtocol.Description>> described = describeAll();
        AgentProtocol.Description first = described.getFirst().orElseThrow(() -> new io.jperf.engine.TestFailedException(
                "the coordinator's own agent (rank 0 on " + agents.getFirst().host() + ":" + agents.getFirst().port()
                        + ") did not answer: " + unanswered.get(0)));
        int rails = first.rails().size();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Optional<AgentProtocol.Description> d = described.get(i);
            if (d.isEmpty()) {
                missing.add(membership.hosts().get(i));
                continue;
            }
            if (d.get().rank() != i || d.get().hosts() != n) {
                throw new io.jperf.engine.TestFailedException("the agent of " + membership.hosts().get(i) + " is rank "
                        + d.get().rank() + " of " + d.get().hosts() + ", not rank " + i + " of " + n + ": the members were"
                        + " not started with the same host list");
            }
            if (d.get().rails().size() != rails) {
                throw new io.jperf.engine.TestFailedException(membership.hosts().get(i) + " has " + d.get().rails().size()
                        + " rails, " + membership.hosts().getFirst() + " has " + rails + ": give every member the same"
                        + " number of --rails");
            }
        }
        if (!missing.isEmpty()) {
            events.accept("no answer from " + missing.size() + " member(s), their tests fail: " + missing);
        }
        List<String> railNames = first.rails().stream().map(Rail::device).toList();
        Schedule schedule = Schedule.of(pattern, n, rails, railMode);
        ResultMatrix matrix = new ResultMatrix(membership.hosts(), railNames, railMode,
                settings.bandwidth() ? Metric.BANDWIDTH_GBPS : Metric.LATENCY_US);
        events.accept(schedule.roundCount() + " rounds, " + schedule.testCount() + " tests");
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            int index = 0;
            for (List<PairTest> round : schedule.rounds()) {
                List<Future<?>> running = new ArrayList<>(round.size());
                for (PairTest t : round) {
                    running.add(pool.submit(() -> runOne(t, described, matrix)));
                }
                int failedHere = 0;
                for (Future<?> f : running) {
                    try {
                        f.get();
                    } catch (ExecutionException e) {
                        failedHere++; // runOne records its failures; this is a bug's trace
                        events.accept("a test's thread failed: " + e.getCause());
                    }
                }
                long fails = round.stream().filter(t -> matrix.status(matrix.combination(t.clientRail(), t.serverRail()),
                        t.client(), t.server()) == ResultMatrix.Status.FAILED).count();
                events.accept("round " + (++index) + "/" + schedule.roundCount() + ": " + round.size() + " test"
                        + (round.size() == 1 ? "" : "s") + ", " + (fails + failedHere) + " failed");
            }
        }
        stopAll(described);
        return matrix;
    }

    private void runOne(PairTest t, List<Optional<AgentProtocol.Description>> described, ResultMatrix matrix) {
        Optional<AgentProtocol.Description> clientAgent = described.get(t.client());
        Optional<AgentProtocol.Description> serverAgent = described.get(t.server());
        PairOutcome outcome;
        if (clientAgent.isEmpty() || serverAgent.isEmpty()) {
            String who = clientAgent.isEmpty() ? membership.hosts().get(t.client()) : membership.hosts().get(t.server());
            int rank = clientAgent.isEmpty() ? t.client() : t.server();
            outcome = PairOutcome.failed("the agent of " + who + " did not answer at the start: " + unanswered.get(rank),
                    null, (short) 0);
        } else {
            Rail serverRail = serverAgent.get().rails().get(t.serverRail());
            PairRequest request = new PairRequest(settings.bandwidth(), settings.size(), settings.durationSeconds(),
                    settings.trafficClass(), settings.warmup(), settings.timeout(), t.clientRail(), t.server(),
                    t.serverRail(), serverRail.address().orElse(membership.hosts().get(t.server())),
                    agents.get(t.server()).servePort());
            AgentAddress agent = agents.get(t.client());
            try {
                outcome = AgentProtocol.outcome(client.call(agent.host(), agent.port(), AgentProtocol.run(request),
                        request.bound()));
            } catch (IOException | JperfException e) {
                outcome = PairOutcome.failed("asking the agent of " + membership.hosts().get(t.client()) + ": "
                        + e.getMessage(), null, (short) 0);
            }
        }
        if (outcome.value().isPresent()) {
            matrix.record(t, outcome.value().getAsDouble(), outcome.verdicts());
        } else {
            matrix.fail(t, outcome.error().orElseThrow(), outcome.verdicts());
        }
        String line = pointLine(t, outcome, matrix);
        synchronized (points) {
            points.accept(line);
        }
    }

    /** One JSON line: the test, its outcome, and the agent's path JSON when it is valid JSON (else null). */
    private String pointLine(PairTest t, PairOutcome o, ResultMatrix m) {
        JsonWriter w = new JsonWriter().beginObject().field("round", t.round())
                .field("client", m.hosts().get(t.client())).field("server", m.hosts().get(t.server()))
                .field("client_rail", m.rails().get(t.clientRail())).field("server_rail", m.rails().get(t.serverRail()))
                .field("status", o.value().isPresent() ? "OK" : "FAILED")
                .field("value", o.value().isPresent() ? o.value().getAsDouble() : Double.NaN)
                .field("verdicts", VerdictMask.describe(o.verdicts()));
        w.name("error").value(o.error().orElse(null));
        w.name("path").nullValue();
        String json = w.endObject().toJson().replace("\n", "").strip();
        String path = o.pathJson().filter(MatrixCoordinator::validJson).orElse(null);
        return path == null ? json : json.substring(0, json.length() - "null}".length()) + path + "}";
    }

    private static boolean validJson(String text) {
        try {
            return JsonReader.parse(text) instanceof Map<?, ?>;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private List<Optional<AgentProtocol.Description>> describeAll() throws InterruptedException {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        List<Optional<AgentProtocol.Description>> result = new ArrayList<>();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Optional<AgentProtocol.Description>>> asked = new ArrayList<>();
            for (int i = 0; i < agents.size(); i++) {
                int rank = i;
                asked.add(pool.submit(() -> describe(rank, deadline)));
            }
            for (Future<Optional<AgentProtocol.Description>> f : asked) {
                try {
                    result.add(f.get());
                } catch (ExecutionException e) {
                    result.add(Optional.empty());
                }
            }
        }
        return result;
    }

    private Optional<AgentProtocol.Description> describe(int rank, long deadline) throws InterruptedException {
        AgentAddress a = agents.get(rank);
        String last = "no attempt";
        while (true) {
            try {
                long left = Math.max(Duration.ofMillis(200).toNanos(), deadline - System.nanoTime());
                AgentProtocol.Description d = AgentProtocol.description(client.call(a.host(), a.port(),
                        AgentProtocol.describe(), MatrixAgent.REQUEST_TIME, Duration.ofNanos(Math.min(left,
                                Duration.ofSeconds(10).toNanos()))));
                events.accept("member " + rank + " " + a.host() + ": rails " + d.rails().stream()
                        .map(r -> r.device() + r.address().map(x -> "=" + x).orElse("")).toList());
                return Optional.of(d);
            } catch (IOException | JperfException e) {
                last = e.getMessage();
                if (e instanceof io.jperf.engine.TestFailedException) {
                    events.accept("member " + rank + " " + a.host() + ": " + last);
                    unanswered.put(rank, last);
                    return Optional.empty(); // refused (e.g. another secret): asking again will not help
                }
            }
            if (System.nanoTime() > deadline) {
                events.accept("member " + rank + " " + a.host() + ": no answer within the start timeout (" + last + ")");
                unanswered.put(rank, "no answer within the start timeout (" + last + ")");
                return Optional.empty();
            }
            Thread.sleep(500);
        }
    }

    private void stopAll(List<Optional<AgentProtocol.Description>> described) throws InterruptedException {
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < agents.size(); i++) {
                if (described.get(i).isEmpty()) {
                    continue;
                }
                AgentAddress a = agents.get(i);
                pool.submit(() -> {
                    try {
                        client.call(a.host(), a.port(), AgentProtocol.stop(), MatrixAgent.REQUEST_TIME);
                    } catch (IOException | JperfException e) {
                        events.accept("could not stop the agent of " + a.host() + ": " + e.getMessage());
                    }
                });
            }
        }
    }
}
