package io.jperf.lab;

import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.Verdict;
import io.jperf.sweep.Sweep;
import io.jperf.sweep.SweepDimension;
import io.jperf.sweep.SweepHtmlReport;
import io.jperf.sweep.SweepJson;
import io.jperf.sweep.SweepPlan;
import io.jperf.sweep.SweepResult;
import io.jperf.sweep.SweepRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static io.jperf.lab.ScenarioGuest.awaitServer;
import static io.jperf.lab.ScenarioGuest.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The verdicts jperf gives in each two-guest lab scenario ({@code lab/rdma-lab scenarios}, or
 * {@code lab/rdma-lab test --vms 2 --scenario NAME}): guest B runs {@code jperf serve}, guest A (this
 * test) runs a {@link Sweep} over the two rails (a short write-bw per rail from A's rxe device of
 * that rail, asking B for its address on the same rail, the control connection over rail0) and
 * writes the sweep's JSON and HTML to {@code $LAB_RESULTS/sweep-<scenario>.{json,html}}. Then it
 * asserts, per rail, whether the test ran and which path findings jperf reported:
 * <ul>
 * <li>multirail: both rails run, no WARNING/ERROR finding.</li>
 * <li>single-default-route: both run (rxe sends on its own netdev); rail1 has F2 about A (the
 *     route leaves through rail0, the GID is on rail1) and F3 (B answers out of rail0 likewise: B's
 *     egress is A's return path, reported once); rail0 has none.</li>
 * <li>asymmetric: both run; rail1 has F3 (B's route back leaves through rail0, from B's record)
 *     and no F2 (A's own route for rail1 is right); rail0 has none.</li>
 * <li>mtu-mismatch: both run; rail1 has F4 (active MTU 4096 vs 1024) and no F2/F3; rail0 none.</li>
 * <li>rail-down: rail1 fails and its failure carries F6 port-not-active about B (the record B sends
 *     when it refuses); rail0 runs, none.</li>
 * <li>no-ipv4: rail1 fails (GID mismatch: A has only the link-local GID); a probe of A's end gives
 *     F6 no-ipv4 and F1 link-local-gid; rail0 none.</li>
 * </ul>
 * Tagged {@code scenario}, not {@code lab}: it needs the two-guest lab and B's server.
 */
@Tag("scenario")
@EnabledIfEnvironmentVariable(named = "LAB_VMS", matches = "2")
class LabScenarioVerdictTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final List<ScenarioRail> RAILS = new ArrayList<>();
    private static String scenario;
    private static SweepResult result;

    @BeforeAll
    static void sweepBothRails() throws Exception {
        scenario = env("LAB_SCENARIO");
        int port = ScenarioGuest.servePort();
        List<String> rails = new ArrayList<>();
        for (int r = 0; r <= 1; r++) {
            rails.add(env("LAB_DEV_RAIL" + r) + "=" + env("LAB_PEER_IP_RAIL" + r));
        }
        // the control connection goes to B's rail0 address; each point asks B for its address on the rail
        TestOptions base = TestOptions.builder(TestKind.WRITE_BW).iterations(200).reportGbits(true)
                .serverHost(env("LAB_PEER_IP_RAIL0")).port(port).build();
        SweepPlan plan = SweepPlan.builder(base).values(SweepDimension.RAIL, rails).build();
        awaitServer();
        result = Sweep.of(plan).pointTimeout(TIMEOUT).warmup(Duration.ZERO).run();
        for (SweepRow row : result.rows()) {
            ScenarioRail rail = new ScenarioRail(RAILS.size(), row);
            RAILS.add(rail);
            System.out.println("scenario " + scenario + " " + rail.summary());
        }
        System.out.flush();
    }

    @AfterAll
    static void writeResults() throws IOException {
        String results = env("LAB_RESULTS");
        if (results == null || scenario == null || result == null) {
            return;
        }
        StringBuilder sb = new StringBuilder("# jperf verdicts, scenario ").append(scenario).append('\n');
        RAILS.forEach(r -> sb.append(r.details()));
        Files.writeString(Path.of(results, "scenario-" + scenario + ".txt"), sb.toString());
        Files.writeString(Path.of(results, "sweep-" + scenario + ".json"), SweepJson.toJson(result));
        Files.writeString(Path.of(results, "sweep-" + scenario + ".html"), SweepHtmlReport.render(result));
    }

    private static ScenarioRail rail(int r) {
        assertEquals(2, RAILS.size(), "both rails were tried");
        return RAILS.get(r);
    }

    private static String show(ScenarioRail r) {
        return r.details();
    }

    private static void ran(ScenarioRail r) {
        assertTrue(r.ran(), () -> "rail" + r.rail() + " should run in " + scenario + ":\n" + show(r));
    }

    private static void consistent(ScenarioRail r) {
        ran(r);
        List<Verdict> problems = r.problems();
        assertTrue(problems.isEmpty(), () -> "rail" + r.rail() + " should have no WARNING/ERROR finding in " + scenario
                + ", got " + problems.stream().map(Verdict::toString).collect(Collectors.joining("; ")) + "\n" + show(r));
    }

    private static void has(ScenarioRail r, String id, String check) {
        assertTrue(r.has(id, check), () -> "rail" + r.rail() + " should carry " + id + " " + check + " in " + scenario
                + ":\n" + show(r));
    }

    private static void has(ScenarioRail r, String id, String check, String end) {
        assertTrue(r.has(id, check, end), () -> "rail" + r.rail() + " should carry " + id + " " + check + " about the "
                + end + " end in " + scenario + ":\n" + show(r));
    }

    private static void lacks(ScenarioRail r, String id) {
        assertFalse(r.has(id), () -> "rail" + r.rail() + " should not carry " + id + " in " + scenario + ":\n" + show(r));
    }

    private static void lacks(ScenarioRail r, String id, String check, String end) {
        assertFalse(r.has(id, check, end), () -> "rail" + r.rail() + " should not carry " + id + " " + check
                + " about the " + end + " end in " + scenario + ":\n" + show(r));
    }

    @Test
    void rail0() {
        // rail0 is untouched by every scenario (single-default-route's one default route leaves through it)
        consistent(rail(0));
    }

    @Test
    void rail1() {
        ScenarioRail r = rail(1);
        switch (scenario) {
            case "multirail" -> consistent(r);
            case "single-default-route" -> {
                ran(r); // rxe sends on its GID's netdev whatever the route says
                has(r, "F2", "egress-netdev", "local"); // A: 10.20.1.1 -> 10.20.1.2 leaves through rail0
                has(r, "F3", "asymmetric-return"); // B answers out of rail0
                lacks(r, "F2", "egress-netdev", "peer"); // B's egress is the return path: F3, once
            }
            case "asymmetric" -> {
                ran(r); // rxe sends on its GID's netdev whatever the route says
                has(r, "F3", "asymmetric-return"); // from B's record: its route back leaves through rail0
                lacks(r, "F2", "egress-netdev", "local"); // A's own route for rail1 is right
                lacks(r, "F2", "egress-netdev", "peer"); // B's egress is the return path: F3, once
            }
            case "mtu-mismatch" -> {
                ran(r); // the ends agree on the smaller MTU
                has(r, "F4", "active-mtu-mismatch");
                lacks(r, "F2");
                lacks(r, "F3");
            }
            case "rail-down" -> {
                assertFalse(r.ran(), () -> "B's rxe1 is DOWN: the test cannot run\n" + show(r));
                // jperf serve refuses and sends its record: the failure carries B's F6 (peer.* evidence;
                // the pre-flight check of this end can only add local.* findings)
                has(r, "F6", "port-not-active", "peer");
            }
            case "no-ipv4" -> {
                // A's rxe1 has only the link-local GID: jperf refuses the GID pair (fe80 vs ::ffff:10.20.1.2)
                // and the failure carries A's own findings (the sweep's pre-flight check adds the same)
                assertFalse(r.ran(), () -> "A's rail1 has no IPv4 GID: the test cannot run\n" + show(r));
                assertTrue(r.row().error().orElse("").contains("GID mismatch"), () -> show(r));
                has(r, "F6", "no-ipv4", "local");
                has(r, "F1", "link-local-gid", "local");
            }
            default -> fail("unknown scenario " + scenario);
        }
    }
}
