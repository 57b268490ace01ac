package io.jperf.lab;

import io.jperf.doctor.Check;
import io.jperf.doctor.Doctor;
import io.jperf.doctor.DoctorReport;
import io.jperf.doctor.DoctorText;
import io.jperf.doctor.Layer;
import io.jperf.doctor.Status;
import io.jperf.report.JsonReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.jperf.lab.ScenarioGuest.awaitServer;
import static io.jperf.lab.ScenarioGuest.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code jperf doctor} in each two-guest lab scenario ({@code lab/rdma-lab scenarios}; see
 * lab/README.md "Scenarios"). Guest B runs {@code jperf serve}; guest A (this test) walks its own
 * host and both rails of the pair ({@code --peer B's rail0 address --rail rxe0=B0 --rail
 * rxe1=B1}) twice: in this JVM through the library, and as a user would, with the
 * {@code jperf doctor --json} command (its exit code and JSON). The text report goes to
 * {@code $LAB_RESULTS/doctor-<scenario>.txt}, the command's JSON to {@code doctor-<scenario>.json}.
 * Expected, with the evidence each finding must carry:
 * <ul>
 * <li>multirail: every configuration check PASS or SKIP, exit 0; except the counters: rxe
 *     retransmits under emulation in every boot (../shared/docs/lab-facts.md), and a walk whose
 *     counter checks say so (with the counters that rose) exits 1 for that alone.</li>
 * <li>single-default-route: A's rail1 routes out of rail0 (IP egress-netdev FAIL, route.egress=rail0,
 *     gid.netdev=rail1); no source rules (WARN); B answers rail1 out of rail0 (pair return-path
 *     FAIL); the smoke tests still run (rxe sends on its own netdev); exit 2.</li>
 * <li>asymmetric: A's own walk passes; pair rail1: return-path FAIL from B's record
 *     (peer.route.egress=rail0), no echo between the rail addresses (ip-reachable FAIL); exit 2.</li>
 * <li>mtu-mismatch: pair rail1: active-mtu-pair WARN with local 4096, peer 1024; no FAIL; exit 1.</li>
 * <li>rail-down: A's own walk passes; pair rail1: write-bw FAIL (serve refuses) and port-state FAIL
 *     with peer.portState=DOWN from B's record, no echo; exit 2.</li>
 * <li>no-ipv4: A's rail1: ipv4-address WARN, ip-gid FAIL, the link-local GID chosen (gid-routable
 *     WARN); pair rail1: write-bw FAIL; exit 2.</li>
 * </ul>
 * Rail0 is untouched by every scenario: its pair checks all pass. Tagged {@code scenario}: it needs
 * the two-guest lab and B's server.
 */
@Tag("scenario")
@EnabledIfEnvironmentVariable(named = "LAB_VMS", matches = "2")
class LabScenarioDoctorTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String RAIL0 = "rxe0 -> ";
    private static String scenario;
    private static DoctorReport report;
    private static int commandExit;
    private static Map<String, Object> commandJson;
    private static String commandOutput;

    @BeforeAll
    static void walk() throws Exception {
        scenario = env("LAB_SCENARIO");
        String port = Integer.toString(ScenarioGuest.servePort());
        String peer = env("LAB_PEER_IP_RAIL0");
        List<Doctor.Rail> rails = List.of(new Doctor.Rail(env("LAB_DEV_RAIL0"), env("LAB_PEER_IP_RAIL0")),
                new Doctor.Rail(env("LAB_DEV_RAIL1"), env("LAB_PEER_IP_RAIL1")));
        awaitServer();
        report = Doctor.builder().peer(peer).port(Integer.parseInt(port)).rails(rails).timeout(TIMEOUT).build().run();
        String text = DoctorText.render(report, false);
        System.out.println(text);
        Path results = Path.of(env("LAB_RESULTS"));
        Files.writeString(results.resolve("doctor-" + scenario + ".txt"), text);

        Process p = new ProcessBuilder(env("LAB_REPO") + "/jperf", "doctor", "--json", "--peer", peer, "-p", port,
                "--rail", rails.get(0) + "," + rails.get(1), "--timeout", Long.toString(TIMEOUT.toSeconds()))
                .redirectError(results.resolve("doctor-" + scenario + ".stderr").toFile()).start();
        commandOutput = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("jperf doctor did not finish within 300 s");
        }
        commandExit = p.exitValue();
        Files.writeString(results.resolve("doctor-" + scenario + ".json"), commandOutput);
        commandJson = JsonReader.parseObject(commandOutput);
    }


    private static String show() {
        return DoctorText.render(report, false);
    }

    private static String rail1() {
        return env("LAB_DEV_RAIL1") + " -> " + env("LAB_PEER_IP_RAIL1");
    }

    private static Check check(Layer layer, String subject, String name) {
        List<Check> hits = report.layer(layer).stream()
                .filter(c -> c.subject().equals(subject) && c.name().equals(name)).toList();
        assertEquals(1, hits.size(), () -> layer + " " + subject + " " + name + " in scenario " + scenario + ":\n" + show());
        return hits.getFirst();
    }

    private static Check expect(Status status, Layer layer, String subject, String name) {
        Check c = check(layer, subject, name);
        assertEquals(status, c.status(), () -> layer + " " + subject + " " + name + " in scenario " + scenario + ":\n" + show());
        return c;
    }

    private static void evidence(Check c, String key, String value) {
        assertEquals(value, c.result().evidence().get(key), () -> key + " of " + c.subject() + " " + c.name() + " in "
                + scenario + ": " + c.result().evidence() + "\n" + show());
    }

    private static List<Check> problems(java.util.function.Predicate<Check> where) {
        return report.checks().stream().filter(where)
                .filter(c -> c.status() == Status.WARN || c.status() == Status.FAIL).toList();
    }

    private static void clean(String what, java.util.function.Predicate<Check> where) {
        List<Check> bad = problems(where);
        assertTrue(bad.isEmpty(), () -> what + " should pass in " + scenario + ", got: " + bad.stream()
                .map(c -> c.status() + " " + c.subject() + " " + c.name() + ": " + c.result().summary())
                .collect(Collectors.joining("; ")) + "\n" + show());
    }

    /**
     * The exit code expected of a walk: by scenario, except that rxe retransmits under emulation in
     * every boot (../shared/docs/lab-facts.md), so a walk whose counter checks warned exits 1 where
     * its configuration is healthy.
     */
    private static int expectedExit(boolean countersWarned) {
        return switch (scenario) {
            case "multirail" -> countersWarned ? DoctorReport.EXIT_WARN : DoctorReport.EXIT_PASS;
            case "mtu-mismatch" -> DoctorReport.EXIT_WARN;
            default -> DoctorReport.EXIT_FAIL;
        };
    }

    /** Every check but the counters, which warn in every boot of the lab (rxe retransmits under emulation). */
    private static boolean configuration(Check c) {
        return !c.name().endsWith("-counters");
    }

    private static boolean counterWarning(Check c) {
        return c.status() == Status.WARN && c.name().endsWith("-counters");
    }

    @Test
    @SuppressWarnings("unchecked")
    void exitCodeOfTheWalkAndOfTheCommand() {
        assertEquals(expectedExit(report.checks().stream().anyMatch(LabScenarioDoctorTest::counterWarning)),
                report.exitCode(), this::toString);
        boolean commandCountersWarned = ((List<Map<String, Object>>) commandJson.get("layers")).stream()
                .flatMap(l -> ((List<Map<String, Object>>) l.get("checks")).stream())
                .anyMatch(c -> "WARN".equals(c.get("status")) && String.valueOf(c.get("check")).endsWith("-counters"));
        int expected = expectedExit(commandCountersWarned);
        assertEquals(expected, commandExit, () -> "jperf doctor --json exit code in " + scenario + ":\n" + commandOutput);
        Map<String, Object> summary = (Map<String, Object>) commandJson.get("summary");
        assertEquals((long) expected, ((Number) summary.get("exit_code")).longValue(), commandOutput);
    }

    @Test
    void countersAreReadAndAWarningNamesTheCountersThatRose() {
        for (Check c : report.checks()) {
            if (counterWarning(c)) {
                assertTrue(c.result().evidence().entrySet().stream()
                        .anyMatch(e -> e.getKey().startsWith("local.hw.") && !e.getValue().equals("0")), c::toString);
                assertTrue(c.result().summary().contains("packets sent and received"), c.result().summary());
            }
        }
        for (String port : List.of(env("LAB_DEV_RAIL0") + "/1", env("LAB_DEV_RAIL1") + "/1")) {
            Check traffic = expect(Status.PASS, Layer.QOS, port, "traffic-counters");
            assertTrue(traffic.result().evidence().containsKey("local.hw.sent_pkts"), traffic::toString);
            assertTrue(check(Layer.QOS, port, "error-counters").result().evidence().containsKey("local.hw.rcvd_seq_err"),
                    "rxe's hw_counters read");
        }
    }

    @Override
    public String toString() {
        return "walk in " + scenario + ":\n" + show();
    }

    @Test
    void rail0PairPassesInEveryScenario() {
        clean("the rail0 pair", c -> c.layer() == Layer.PEER && c.subject().startsWith(RAIL0));
        for (String name : List.of("ip-reachable", "serve-reachable", "write-bw", "write-lat", "return-path",
                "active-mtu-pair")) {
            expect(Status.PASS, Layer.PEER, RAIL0 + env("LAB_PEER_IP_RAIL0"), name);
        }
    }

    @Test
    void findingsOfTheScenario() {
        String rail1 = rail1();
        switch (scenario) {
            case "multirail" -> clean("every check but the counters (rxe retransmits under emulation)",
                    LabScenarioDoctorTest::configuration);
            case "single-default-route" -> {
                Check egress = expect(Status.FAIL, Layer.IP, "rail1 (rxe1/1)", "egress-netdev");
                evidence(egress, "local.route.egress", "rail0");
                evidence(egress, "local.gid.netdev", "rail1");
                expect(Status.PASS, Layer.IP, "rail0 (rxe0/1)", "egress-netdev");
                expect(Status.WARN, Layer.IP, "rail1", "source-rule");
                Check back = expect(Status.FAIL, Layer.PEER, rail1, "return-path");
                evidence(back, "peer.route.egress", "rail0");
                expect(Status.PASS, Layer.PEER, rail1, "write-bw"); // rxe sends on its GID's netdev
            }
            case "asymmetric" -> {
                clean("A's own walk", c -> c.layer() != Layer.PEER && configuration(c));
                Check back = expect(Status.FAIL, Layer.PEER, rail1, "return-path");
                assertEquals("asymmetric-return", back.result().finding());
                evidence(back, "peer.route.egress", "rail0");
                evidence(back, "peer.gid.netdev", "rail1");
                expect(Status.FAIL, Layer.PEER, rail1, "ip-reachable");
                expect(Status.PASS, Layer.PEER, rail1, "egress-netdev"); // A's own route for rail1 is right
            }
            case "mtu-mismatch" -> {
                Check mtu = expect(Status.WARN, Layer.PEER, rail1, "active-mtu-pair");
                evidence(mtu, "local.activeMtu", "4096");
                evidence(mtu, "peer.activeMtu", "1024");
                evidence(mtu, "peer.netdev.mtu", "1500");
                expect(Status.PASS, Layer.PEER, rail1, "write-bw");
                assertEquals(0, report.count(Status.FAIL), this::toString);
            }
            case "rail-down" -> {
                clean("A's own walk", c -> c.layer() != Layer.PEER && configuration(c));
                expect(Status.PASS, Layer.PEER, rail1, "serve-reachable");
                expect(Status.FAIL, Layer.PEER, rail1, "write-bw");
                Check port = expect(Status.FAIL, Layer.PEER, rail1, "port-state");
                evidence(port, "peer.portState", "DOWN");
                expect(Status.FAIL, Layer.PEER, rail1, "ip-reachable");
            }
            case "no-ipv4" -> {
                Check ipv4 = expect(Status.WARN, Layer.IP, "rail1", "ipv4-address");
                assertTrue(ipv4.result().evidence().get("local.addresses").startsWith("[fe80:"), this::toString);
                expect(Status.FAIL, Layer.RDMA, "rxe1/1", "ip-gid");
                Check gid = expect(Status.WARN, Layer.RDMA, "rxe1/1", "gid-routable");
                assertTrue(gid.result().evidence().get("local.gid").startsWith("fe80:"), this::toString);
                expect(Status.SKIP, Layer.PEER, rail1, "ip-reachable");
                expect(Status.FAIL, Layer.PEER, rail1, "write-bw");
                clean("rail0's own checks", c -> c.layer() != Layer.PEER && configuration(c)
                        && (c.subject().startsWith("rail0") || c.subject().startsWith("rxe0")));
            }
            default -> fail("unknown scenario " + scenario);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theCommandsJsonAgreesWithTheWalk() {
        List<Map<String, Object>> layers = (List<Map<String, Object>>) commandJson.get("layers");
        Map<String, Long> byStatus = layers.stream().flatMap(l -> ((List<Map<String, Object>>) l.get("checks")).stream())
                .collect(Collectors.groupingBy(c -> c.get("subject") + " " + c.get("check") + " " + c.get("status"),
                        Collectors.counting()));
        // the findings that decide each scenario appear in the command's JSON too (counters may differ by a packet)
        for (Check c : report.checks()) {
            if (c.status() == Status.FAIL && !c.name().endsWith("-counters")) {
                assertTrue(byStatus.containsKey(c.subject() + " " + c.name() + " FAIL"), () -> c.subject() + " " + c.name()
                        + " FAIL in the walk but not in the command's JSON:\n" + commandOutput);
            }
        }
    }
}
