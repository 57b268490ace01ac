package io.jperf.matrix;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.ServeLimits;
import io.jperf.engine.TestFailedException;
import io.jperf.report.JsonReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The coordinator and three agents on 127.0.0.1, each agent on its own port with a recording
 * runner in place of the write-test engine: what travels between them, authentication, budgets,
 * deadlines. No RDMA and no traffic beyond 127.0.0.1.
 */
class MatrixProtocolTest {
    private static final AuthSecret SECRET = AuthSecret.of("matrix-test-secret-0123456789", "test");
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final List<String> HOSTS = List.of("node-a", "node-b", "node-c");
    private final List<MatrixAgent> agents = new ArrayList<>();
    private final List<Recording> runners = new ArrayList<>();
    private final List<String> agentEvents = new CopyOnWriteArrayList<>();

    /** Records each request; rank 2's rail 1 is slow on every pair; node-a -> node-b on rail 0 fails. */
    private static final class Recording implements PairRunner {
        final int rank;
        final List<PairRequest> requests = Collections.synchronizedList(new ArrayList<>());
        final List<Rail> rails = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger running = new AtomicInteger();
        volatile int mostAtOnce;

        Recording(int rank) {
            this.rank = rank;
        }

        @Override
        public PairOutcome run(PairRequest r, Rail localRail) {
            mostAtOnce = Math.max(mostAtOnce, running.incrementAndGet());
            try {
                requests.add(r);
                rails.add(localRail);
                if (rank == 0 && r.serverRank() == 1 && r.clientRail() == 0) {
                    return PairOutcome.failed("completion error: WC status 12 (retry exceeded)", null, (short) 0x0202);
                }
                boolean slow = (rank == 2 || r.serverRank() == 2) && r.clientRail() == 1;
                String path = "{\"local\":{\"rank\":" + rank + "},\"peer\":{\"rank\":" + r.serverRank() + "},\"verdicts\":[]}";
                return PairOutcome.ok(slow ? 40.5 : 97.25, path, (short) 0);
            } finally {
                running.decrementAndGet();
            }
        }
    }

    private List<MatrixCoordinator.AgentAddress> startAgents(ServeLimits limits, Duration requestTime) throws IOException {
        List<MatrixCoordinator.AgentAddress> addresses = new ArrayList<>();
        for (int rank = 0; rank < HOSTS.size(); rank++) {
            Recording runner = new Recording(rank);
            List<Rail> rails = List.of(new Rail("rxe0", Optional.of("10.0.0." + (rank + 1))),
                    new Rail("rxe1", Optional.of("10.0.1." + (rank + 1))));
            MatrixAgent agent = MatrixAgent.start(ClusterMembership.explicit(HOSTS, rank), rails, 0, LOOPBACK, limits,
                    runner, requestTime);
            agent.onEvent(agentEvents::add);
            agents.add(agent);
            runners.add(runner);
            addresses.add(new MatrixCoordinator.AgentAddress(LOOPBACK.getHostAddress(), agent.port(), 18515 + rank * 10));
        }
        return addresses;
    }

    private static MatrixCoordinator.TestSettings settings(int duration) {
        return new MatrixCoordinator.TestSettings(true, 65536, duration, 106, Duration.ZERO, Duration.ofSeconds(5));
    }

    @AfterEach
    void closeAgents() throws IOException {
        for (MatrixAgent a : agents) {
            a.close();
        }
    }

    @Test
    void theCoordinatorRunsEveryTestOnItsClientsAgentAgainstTheServersRailAddress() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                MatrixAgent.REQUEST_TIME);
        List<String> points = new CopyOnWriteArrayList<>();
        List<String> events = new CopyOnWriteArrayList<>();
        ResultMatrix m = MatrixCoordinator.builder(ClusterMembership.explicit(HOSTS, 0), SECRET, settings(3))
                .agents(addresses).startTimeout(Duration.ofSeconds(10)).points(points::add).events(events::add)
                .build().run();

        assertEquals(List.of("rxe0", "rxe1"), m.rails());
        Schedule schedule = Schedule.of(Pattern.ALL_PAIRS, 3, 2, RailMode.PER_RAIL);
        int total = 0;
        for (List<PairTest> round : schedule.rounds()) {
            for (PairTest t : round) {
                total++;
                Recording client = runners.get(t.client());
                PairRequest asked = client.requests.stream().filter(r -> r.serverRank() == t.server()
                        && r.clientRail() == t.clientRail()).findFirst().orElseThrow(() -> new AssertionError(t + " not run"));
                assertEquals("10.0." + t.serverRail() + "." + (t.server() + 1), asked.serverAddress(), t.toString());
                assertEquals(t.serverRail(), asked.serverRail());
                assertEquals(18515 + t.server() * 10, asked.serverPort(), "the server's own serve port");
                assertEquals(65536, asked.size());
                assertEquals(3, asked.durationSeconds());
                assertEquals(106, asked.trafficClass());
                assertTrue(asked.bandwidth());
                int c = m.combination(t.clientRail(), t.serverRail());
                if (t.client() == 0 && t.server() == 1 && t.clientRail() == 0) {
                    assertEquals(ResultMatrix.Status.FAILED, m.status(c, t.client(), t.server()));
                    assertTrue(m.error(c, 0, 1).orElseThrow().contains("retry exceeded"));
                    assertEquals("F2!", VerdictMask.describe(m.verdicts(c, 0, 1)), "the failure's findings travel");
                } else {
                    assertEquals(ResultMatrix.Status.OK, m.status(c, t.client(), t.server()), t.toString());
                }
            }
        }
        assertEquals(6, total);
        assertEquals(6, runners.stream().mapToInt(r -> r.requests.size()).sum(), "each test ran once, on its client");
        for (Recording r : runners) {
            assertTrue(r.mostAtOnce <= 1, "one test at a time on " + r.rank);
            for (int i = 0; i < r.requests.size(); i++) {
                assertEquals(r.requests.get(i).clientRail() == 0 ? "rxe0" : "rxe1", r.rails.get(i).device());
                assertEquals("10.0." + r.requests.get(i).clientRail() + "." + (r.rank + 1),
                        r.rails.get(i).address().orElseThrow());
            }
        }
        assertEquals(6, points.size());
        for (String line : points) {
            assertFalse(line.contains("\n"));
            Map<String, Object> p = JsonReader.parseObject(line);
            if ("OK".equals(p.get("status"))) {
                Map<?, ?> path = (Map<?, ?>) p.get("path");
                assertEquals(((Number) ((Map<?, ?>) path.get("peer")).get("rank")).intValue(),
                        HOSTS.indexOf((String) p.get("server")), line);
            } else {
                assertEquals(null, p.get("path"));
                assertTrue(((String) p.get("error")).contains("retry exceeded"));
            }
        }
        for (MatrixAgent a : agents) {
            assertTrue(a.awaitStop(Duration.ofSeconds(5)), "every agent was told to stop");
        }
        assertTrue(events.stream().anyMatch(e -> e.startsWith("round 6/6: 1 test, ")), events.toString());

        MatrixAnalysis analysis = MatrixAnalysis.of(m, Threshold.parse("0.8xmedian"));
        assertEquals(MatrixAnalysis.Kind.HOST_RAIL, analysis.suspects().getFirst().kind());
        assertEquals(2, analysis.suspects().getFirst().host());
        assertEquals(1, analysis.suspects().getFirst().rail());
    }

    @Test
    void anotherSecretIsRefusedAndNothingRuns() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                MatrixAgent.REQUEST_TIME);
        AuthSecret other = AuthSecret.of("another-secret-of-some-length", "test");
        TestFailedException e = assertThrows(TestFailedException.class, () -> MatrixCoordinator.builder(
                ClusterMembership.explicit(HOSTS, 0), other, settings(3)).agents(addresses)
                .startTimeout(Duration.ofSeconds(5)).build().run());
        assertTrue(e.getMessage().contains("authentication failed"), e.getMessage());
        assertEquals(0, runners.stream().mapToInt(r -> r.requests.size()).sum());
        assertTrue(agentEvents.stream().anyMatch(x -> x.contains("authentication failed")), agentEvents.toString());
    }

    @Test
    void aTestBeyondTheAgentsBudgetIsRefusedBeforeItRuns() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET)
                .withMaxDuration(Duration.ofSeconds(2)), MatrixAgent.REQUEST_TIME);
        ResultMatrix m = MatrixCoordinator.builder(ClusterMembership.explicit(HOSTS, 0), SECRET, settings(3))
                .agents(addresses).startTimeout(Duration.ofSeconds(5)).build().run();
        assertEquals(0, runners.stream().mapToInt(r -> r.requests.size()).sum());
        assertTrue(m.error(0, 0, 1).or(() -> m.error(0, 1, 0)).orElseThrow()
                .contains("-D 3 is beyond this agent's --max-duration 2 s"), m.error(0, 0, 1).toString());
        assertEquals(6, MatrixAnalysis.of(m, null).failed());
    }

    @Test
    void anAgentRunsTestsOnlyAgainstAnotherMember() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                MatrixAgent.REQUEST_TIME);
        AgentClient client = new AgentClient(SECRET, Duration.ofSeconds(5));
        int port = addresses.get(1).port();
        PairRequest self = new PairRequest(true, 65536, 1, 0, Duration.ZERO, Duration.ofSeconds(5), 0, 1, 0,
                "10.0.0.2", 18515);
        assertTrue(assertThrows(TestFailedException.class, () -> client.call("127.0.0.1", port, AgentProtocol.run(self),
                Duration.ofSeconds(5))).getMessage().contains("is not another member"));
        PairRequest named = new PairRequest(true, 65536, 1, 0, Duration.ZERO, Duration.ofSeconds(5), 0, 2, 0,
                "elsewhere.example.com", 18515);
        assertTrue(assertThrows(TestFailedException.class, () -> client.call("127.0.0.1", port, AgentProtocol.run(named),
                Duration.ofSeconds(5))).getMessage().contains("neither an IP address nor member 2's host name"));
        PairRequest huge = new PairRequest(true, 1L << 30, 1, 0, Duration.ZERO, Duration.ofSeconds(5), 0, 2, 0,
                "node-c", 18515);
        assertTrue(assertThrows(TestFailedException.class, () -> client.call("127.0.0.1", port, AgentProtocol.run(huge),
                Duration.ofSeconds(5))).getMessage().contains("beyond this agent's --max-memory"));
        Map<String, String> unknown = Map.of(AgentProtocol.OP, "shell");
        assertTrue(assertThrows(TestFailedException.class, () -> client.call("127.0.0.1", port, unknown,
                Duration.ofSeconds(5))).getMessage().contains("unknown matrix.op 'shell'"));
        PairRequest byName = new PairRequest(true, 65536, 1, 0, Duration.ZERO, Duration.ofSeconds(5), 1, 2, 1,
                "node-c", 18515);
        Map<String, String> answer = client.call("127.0.0.1", port, AgentProtocol.run(byName), Duration.ofSeconds(5));
        assertEquals(40.5, AgentProtocol.outcome(answer).value().orElseThrow(), 1e-9);
        assertEquals(1, runners.get(1).requests.size(), "only the valid request ran");
    }

    @Test
    void anOversizedPathRecordIsLeftOutAndThePointStillArrives() throws Exception {
        String huge = "{\"local\":\"" + "x".repeat(70_000) + "\"}";
        MatrixAgent agent = MatrixAgent.start(ClusterMembership.explicit(HOSTS, 0),
                List.of(new Rail("rxe0", Optional.of("10.0.0.1"))), 0, LOOPBACK, ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                (r, rail) -> PairOutcome.ok(12.5, huge, (short) 0));
        agents.add(agent);
        PairRequest r = new PairRequest(true, 65536, 1, 0, Duration.ZERO, Duration.ofSeconds(5), 0, 1, 0, "10.0.0.2",
                18515);
        Map<String, String> answer = new AgentClient(SECRET, Duration.ofSeconds(5)).call("127.0.0.1", agent.port(),
                AgentProtocol.run(r), Duration.ofSeconds(5));
        assertFalse(answer.containsKey(AgentProtocol.PATH));
        assertEquals(huge.length() + " characters", answer.get(AgentProtocol.PATH_LEFT_OUT));
        assertEquals(12.5, AgentProtocol.outcome(answer).value().orElseThrow(), 1e-9);
    }

    @Test
    void aSilentConnectionIsDroppedAtTheRequestDeadlineAndTheAgentGoesOn() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                Duration.ofMillis(400));
        long t0 = System.nanoTime();
        try (Socket silent = new Socket(LOOPBACK, addresses.get(0).port())) {
            silent.setSoTimeout(5000);
            assertEquals(-1, silent.getInputStream().read(), "the agent closes the silent connection");
        }
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(3).toNanos());
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (agentEvents.stream().noneMatch(e -> e.startsWith("dropped 127.0.0.1")) && System.nanoTime() < until) {
            Thread.sleep(20); // the agent reports the drop just after it closed the connection
        }
        assertTrue(agentEvents.stream().anyMatch(e -> e.startsWith("dropped 127.0.0.1")), agentEvents.toString());
        AgentClient client = new AgentClient(SECRET, Duration.ofSeconds(5));
        Map<String, String> d = client.call("127.0.0.1", addresses.get(0).port(), AgentProtocol.describe(),
                Duration.ofSeconds(5));
        assertEquals(0, AgentProtocol.description(d).rank());
        assertEquals(2, AgentProtocol.description(d).rails().size());
    }

    @Test
    void anAgentThatNeverAnswersFailsItsTestsAndTheRestRuns() throws Exception {
        List<MatrixCoordinator.AgentAddress> addresses = startAgents(ServeLimits.DEFAULTS.withAuthSecret(SECRET),
                MatrixAgent.REQUEST_TIME);
        agents.get(2).close();
        ResultMatrix m = MatrixCoordinator.builder(ClusterMembership.explicit(HOSTS, 0), SECRET, settings(3))
                .agents(addresses).startTimeout(Duration.ofSeconds(1)).build().run();
        MatrixAnalysis a = MatrixAnalysis.of(m, null);
        assertEquals(4, a.failed(), "node-c's four tests, and node-a -> node-b on rail 0");
        assertEquals(2, runners.get(0).requests.size() + runners.get(1).requests.size());
        assertTrue(a.badLinks().stream().anyMatch(l -> l.error().contains("the agent of node-c did not answer at the start")));
    }
}
