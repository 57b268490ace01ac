package io.jperf.matrix;

import io.jperf.engine.AuthSecret;
import io.jperf.engine.ServeLimits;
import io.jperf.report.JsonReader;
import io.jperf.verbs.Context;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A two-member matrix on the one-guest lab's real rxe devices, in one JVM: member 0 on rxe0 and
 * member 1 on rxe1, each with its real {@code jperf serve} and agent ({@link PerfTestRunner}), the
 * coordinator asking over the authenticated agent exchange; write-bw and write-lat, each point with
 * a figure and both ends' path records.
 */
@Tag("lab")
class LabMatrixTest {
    private static final AuthSecret SECRET = AuthSecret.of("lab-matrix-shared-secret-01", "lab");

    @Test
    void twoMembersOnRealDevices() throws Exception {
        List<Rail> rails = new ArrayList<>();
        for (String device : List.of("rxe0", "rxe1")) {
            try (Context ctx = Rdma.open(device)) {
                GidEntry g = GidSelection.perftestDefault(ctx.queryPort(1)).orElseThrow();
                rails.add(new Rail(device, Optional.of(g.ipAddress().orElseThrow().getHostAddress())));
            }
        }
        List<String> hosts = List.of(rails.get(0).address().orElseThrow(), rails.get(1).address().orElseThrow());
        ServeLimits limits = ServeLimits.DEFAULTS.withAuthSecret(SECRET);
        List<String> events = new CopyOnWriteArrayList<>();
        List<MatrixMember> members = new ArrayList<>();
        try {
            List<MatrixCoordinator.AgentAddress> addresses = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                MatrixMember m = MatrixMember.start(ClusterMembership.explicit(hosts, rank), List.of(rails.get(rank)),
                        freePort(), 0,
                        limits, Duration.ofSeconds(30), new PerfTestRunner(SECRET, 1), events::add);
                members.add(m);
                addresses.add(new MatrixCoordinator.AgentAddress("127.0.0.1", m.agentPort(), m.servePort()));
            }
            for (boolean bandwidth : new boolean[] {true, false}) {
                List<String> points = new CopyOnWriteArrayList<>();
                ResultMatrix result = MatrixCoordinator.builder(ClusterMembership.explicit(hosts, 0), SECRET,
                                new MatrixCoordinator.TestSettings(bandwidth, bandwidth ? 65536 : 2, 2, 0, Duration.ZERO,
                                        Duration.ofSeconds(30)))
                        .agents(addresses).startTimeout(Duration.ofSeconds(20)).points(points::add).build().run();
                // all-pairs of two hosts is one test, in the schedule's direction: rank 1's client against rank 0
                assertEquals(ResultMatrix.Status.OK, result.status(0, 1, 0), events + " " + points);
                assertTrue(result.value(0, 1, 0) > 0, points.toString());
                Map<String, Object> p = JsonReader.parseObject(points.getFirst());
                Map<?, ?> path = (Map<?, ?>) p.get("path");
                assertTrue(path.get("local") instanceof Map && path.get("peer") instanceof Map, points.getFirst());
            }
        } finally {
            for (MatrixMember m : members) {
                m.close();
            }
        }
    }

    /** jperf serve needs a real port (its RDMA CM listener shares it); the agent may take any. */
    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
