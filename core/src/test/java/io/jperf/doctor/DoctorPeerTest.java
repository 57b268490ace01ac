package io.jperf.doctor;

import io.jperf.engine.PathReport;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.TrafficClass;
import io.jperf.path.Verdicts;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static io.jperf.doctor.DoctorFixtures.doctor;
import static io.jperf.doctor.DoctorFixtures.healthyDevices;
import static io.jperf.doctor.DoctorFixtures.rxe;
import static io.jperf.doctor.DoctorFixtures.rxeGids;
import static io.jperf.doctor.DoctorFixtures.tree;
import static io.jperf.doctor.DoctorTest.assertStatus;
import static io.jperf.doctor.DoctorTest.only;
import static io.jperf.doctor.DoctorTest.problems;
import static io.jperf.doctor.FakeNetwork.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pair layer against a scripted {@code jperf serve}: host A is the fixture host, host B its
 * mirror (10.20.R.2); each smoke test's path records are probed on A's and B's network views the
 * way a real test probes them, and checked by the same path checks.
 */
class DoctorPeerTest {
    static final Doctor.Rail RAIL0 = new Doctor.Rail("rxe0", "10.20.0.2");
    static final Doctor.Rail RAIL1 = new Doctor.Rail("rxe1", "10.20.1.2");

    /** B as multirail (mirror of A). */
    static FakeNetwork bMultirail() {
        return new FakeNetwork()
                .link(3, "rail0", "10.20.0.2/24").link(4, "rail1", "10.20.1.2/24")
                .rule(100, "10.20.0.2/32", 100).rule(101, "10.20.1.2/32", 101).rule(32766, null, 254)
                .route(100, "10.20.0.0/24", 3, null).route(101, "10.20.1.0/24", 4, null)
                .route(254, "10.20.0.0/24", 3, null).route(254, "0.0.0.0/0", 3, null);
    }

    /** B as in the asymmetric scenario: rail1 without a table or rule, a default route out of rail0. */
    static FakeNetwork bAsymmetric() {
        return new FakeNetwork()
                .link(3, "rail0", "10.20.0.2/24").link(4, "rail1", "10.20.1.2/24")
                .rule(100, "10.20.0.2/32", 100).rule(32766, null, 254)
                .route(100, "10.20.0.0/24", 3, null).route(254, "10.20.0.0/24", 3, null).route(254, "0.0.0.0/0", 3, null);
    }

    static List<DeviceInfo> bDevices(Mtu rail1Mtu, PortState rail1State) {
        return List.of(
                rxe("rxe0", PortState.ACTIVE, Mtu.MTU_4096, rxeGids("rail0", 3, "fe80::5054:ff:fe4c:200", "10.20.0.2")),
                rxe("rxe1", rail1State, rail1Mtu, rxeGids("rail1", 4, "fe80::5054:ff:fe4c:201", "10.20.1.2")));
    }

    /** The records a test of {@code options} would exchange: A's towards B's address, B's towards A's GID. */
    static PathReport records(TestOptions options, String peerAddress, FakeNetwork b, List<DeviceInfo> bDevices) {
        DeviceInfo a = healthyDevices().stream().filter(d -> d.name().equals(options.target().device())).findFirst().orElseThrow();
        PortInfo aPort = a.ports().getFirst();
        var aGid = GidSelection.perftestDefault(aPort).orElseThrow();
        InetAddress bAddress = ip(peerAddress);
        PathRecord local = new PathProbe(tree(), FakeNetwork.multirail(), () -> 0)
                .probe(a, aPort, aGid, bAddress, new TrafficClass(0));
        DeviceInfo bd = bDevices.stream().filter(d -> d.ports().getFirst().gids().stream()
                .anyMatch(g -> g.ipAddress().map(bAddress::equals).orElse(false))).findFirst().orElseThrow();
        PortInfo bPort = bd.ports().getFirst();
        var bGid = GidSelection.perftestDefault(bPort).orElseThrow();
        PathRecord peer = new PathProbe(tree(), b, () -> 1).probe(bd, bPort, bGid, aGid.gid().toInetAddress(),
                new TrafficClass(0));
        return new PathReport(local, Optional.of(peer), Verdicts.evaluate(local, peer));
    }

    /** A serve that runs every test: the figures, and the records of {@link #records}. */
    static Doctor.SmokeRunner serve(FakeNetwork b, List<DeviceInfo> bDevices, List<String> calls) {
        return (options, address, timeout) -> {
            calls.add(options.params().kind() + " " + options.target().device() + " " + options.target().serverHost() + ":" + options.target().port() + " " + address);
            String peerAddress = address != null ? address : options.target().serverHost();
            Map<String, String> figures = options.params().kind() == TestKind.WRITE_BW
                    ? Map.of("size", "65536", "iterations", "200", "average", "0.480 Gb/s")
                    : Map.of("size", "2", "iterations", "200", "typical", "31.200 us");
            return SmokeResult.ran(options.params().kind(), new java.util.TreeMap<>(figures),
                    Optional.of(records(options, peerAddress, b, bDevices)), "jperf 0.1 (serve)");
        };
    }

    static Doctor.Builder pairs(Path root, Doctor.SmokeRunner smoke, Doctor.Pinger pinger) {
        return doctor(root, healthyDevices(), FakeNetwork.multirail()).peer("10.20.0.2").rails(List.of(RAIL0, RAIL1))
                .smoke(smoke).pinger(pinger);
    }

    @Test
    void healthyRailsPassAndEachRailAsksServeForItsAddress() {
        List<String> calls = new ArrayList<>();
        List<String> pinged = new ArrayList<>();
        DoctorReport r = pairs(tree(), serve(bMultirail(), bDevices(Mtu.MTU_4096, PortState.ACTIVE), calls),
                (netdev, target, timeout) -> pinged.add(netdev + ">" + target.getHostAddress())).build().run();

        assertEquals("", problems(r));
        assertEquals(DoctorReport.EXIT_PASS, r.exitCode());
        assertEquals(List.of("WRITE_BW rxe0 10.20.0.2:18515 10.20.0.2", "WRITE_LAT rxe0 10.20.0.2:18515 10.20.0.2",
                "WRITE_BW rxe1 10.20.0.2:18515 10.20.1.2", "WRITE_LAT rxe1 10.20.0.2:18515 10.20.1.2"), calls);
        assertEquals(List.of("rail0>10.20.0.2", "rail1>10.20.1.2"), pinged);
        String rail1 = "rxe1 -> 10.20.1.2";
        for (String name : List.of("ip-reachable", "serve-reachable", "write-bw", "write-lat", "active-mtu-pair",
                "gid-type-pair", "egress-netdev", "return-path", "port-state")) {
            assertStatus(Status.PASS, only(r, Layer.PEER, rail1, name), r);
        }
        assertEquals("rail1", only(r, Layer.PEER, rail1, "return-path").result().evidence().get("peer.route.egress"));
        assertTrue(only(r, Layer.PEER, rail1, "write-bw").result().summary().contains("0.480 Gb/s"));
        assertStatus(Status.PASS, only(r, Layer.PEER, "rxe1/1", "error-counters"), r);
    }

    @Test
    void asymmetricReturnPathFailsFromThePeersRecordAndTheEchoFails() {
        DoctorReport r = pairs(tree(), serve(bAsymmetric(), bDevices(Mtu.MTU_4096, PortState.ACTIVE), new ArrayList<>()),
                (netdev, target, timeout) -> netdev.equals("rail0")).build().run();

        String rail1 = "rxe1 -> 10.20.1.2";
        Check back = only(r, Layer.PEER, rail1, "return-path");
        assertStatus(Status.FAIL, back, r);
        assertEquals("asymmetric-return", back.result().finding());
        assertEquals("rail0", back.result().evidence().get("peer.route.egress"));
        assertEquals("rail1", back.result().evidence().get("peer.gid.netdev"));
        Check echo = only(r, Layer.PEER, rail1, "ip-reachable");
        assertStatus(Status.FAIL, echo, r);
        assertEquals("10.20.1.1", echo.result().evidence().get("local.source"));
        assertStatus(Status.PASS, only(r, Layer.PEER, rail1, "write-bw"), r); // rxe sends on its own netdev
        assertStatus(Status.PASS, only(r, Layer.PEER, rail1, "egress-netdev"), r); // A's own route is right
        assertStatus(Status.PASS, only(r, Layer.PEER, "rxe0 -> 10.20.0.2", "return-path"), r);
        assertEquals(DoctorReport.EXIT_FAIL, r.exitCode());
    }

    @Test
    void activeMtuMismatchWarnsWithBothValues() {
        DoctorReport r = pairs(tree(), serve(bMultirail(), bDevices(Mtu.MTU_1024, PortState.ACTIVE), new ArrayList<>()),
                (netdev, target, timeout) -> true).build().run();
        Check mtu = only(r, Layer.PEER, "rxe1 -> 10.20.1.2", "active-mtu-pair");
        assertStatus(Status.WARN, mtu, r);
        assertEquals("4096", mtu.result().evidence().get("local.activeMtu"));
        assertEquals("1024", mtu.result().evidence().get("peer.activeMtu"));
        assertStatus(Status.PASS, only(r, Layer.PEER, "rxe0 -> 10.20.0.2", "active-mtu-pair"), r);
        assertEquals(DoctorReport.EXIT_WARN, r.exitCode(), problems(r));
    }

    @Test
    void aRefusalCarriesThePeersPortStateAsItsOwnCheck() {
        List<DeviceInfo> b = bDevices(Mtu.MTU_1024, PortState.DOWN);
        Doctor.SmokeRunner healthy = serve(bMultirail(), b, new ArrayList<>());
        Doctor.SmokeRunner smoke = (options, address, timeout) -> {
            if (!"10.20.1.2".equals(address)) {
                return healthy.run(options, address, timeout);
            }
            PathRecord down = records(options.toBuilder().device("rxe0").build(), "10.20.1.2", bMultirail(), b).peer()
                    .orElseThrow();
            return SmokeResult.failed(options.params().kind(), SmokeResult.Stage.TEST, "the `jperf serve` peer cannot run this"
                    + " test: port 1 of rxe1 is DOWN, not ACTIVE\n  F6 ERROR port-not-active: ...", Verdicts.endState(down, "peer"));
        };
        DoctorReport r = pairs(tree(), smoke, (netdev, target, timeout) -> !netdev.equals("rail1")).build().run();

        String rail1 = "rxe1 -> 10.20.1.2";
        assertStatus(Status.PASS, only(r, Layer.PEER, rail1, "serve-reachable"), r);
        Check bw = only(r, Layer.PEER, rail1, "write-bw");
        assertStatus(Status.FAIL, bw, r);
        assertEquals("write-bw failed: the `jperf serve` peer cannot run this test: port 1 of rxe1 is DOWN, not ACTIVE",
                bw.result().summary(), "one line: the findings are checks of their own");
        Check port = only(r, Layer.PEER, rail1, "port-state");
        assertStatus(Status.FAIL, port, r);
        assertEquals("DOWN", port.result().evidence().get("peer.portState"));
        assertStatus(Status.FAIL, only(r, Layer.PEER, rail1, "write-lat"), r);
        assertStatus(Status.FAIL, only(r, Layer.PEER, rail1, "ip-reachable"), r);
    }

    @Test
    void aPeerWithoutServeFailsOnceAndStops() {
        List<String> calls = new ArrayList<>();
        DoctorReport r = doctor(tree(), healthyDevices(), FakeNetwork.multirail()).peer("10.20.0.2")
                .pinger((netdev, target, timeout) -> true)
                .smoke((options, address, timeout) -> {
                    calls.add(options.params().kind().name());
                    return SmokeResult.failed(options.params().kind(), SmokeResult.Stage.CONNECT, "could not connect to"
                            + " 10.20.0.2:18515 within 20 s (Connection refused); is the server side running?", List.of());
                }).build().run();

        Check c = only(r, Layer.PEER, "rxe0 -> 10.20.0.2", "serve-reachable");
        assertStatus(Status.FAIL, c, r);
        assertTrue(c.result().fixHint().startsWith("start `jperf serve` on the peer"), c.result().fixHint());
        assertEquals(List.of("WRITE_BW"), calls, "no latency test after the server was not reached");
        assertEquals(DoctorReport.EXIT_FAIL, r.exitCode());
    }

    @Test
    void countersThatGrowDuringTheSmokeTestsWarnWithTheChange(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        DoctorFixtures.write(root, "sys/class/infiniband/rxe1/ports/1/hw_counters/rcvd_seq_err", "10");
        Doctor.SmokeRunner healthy = serve(bMultirail(), bDevices(Mtu.MTU_4096, PortState.ACTIVE), new ArrayList<>());
        Doctor.SmokeRunner lossy = (options, address, timeout) -> {
            DoctorFixtures.write(root, "sys/class/infiniband/rxe1/ports/1/hw_counters/rcvd_seq_err", "14");
            return healthy.run(options, address, timeout);
        };
        DoctorReport r = pairs(root, lossy, (netdev, target, timeout) -> true).build().run();

        Check during = only(r, Layer.PEER, "rxe1/1", "error-counters");
        assertStatus(Status.WARN, during, r);
        assertTrue(during.result().summary().endsWith("during the smoke tests: hw.rcvd_seq_err=4"), during.result().summary());
        assertEquals("0", during.result().evidence().get("local.packets"), "the fixture's packet counters did not move");
        Check total = only(r, Layer.QOS, "rxe1/1", "error-counters");
        assertTrue(total.result().summary().endsWith("hw.rcvd_seq_err=10 (against 2300 packets sent and received)"),
                total.result().summary());
    }

    @Test
    void aSinglePeerUsesTheRailOnItsSubnetOrSaysNoneReachesIt() {
        List<String> calls = new ArrayList<>();
        Function<String, DoctorReport> run = host -> doctor(tree(), healthyDevices(), FakeNetwork.multirail()).peer(host)
                .pinger((netdev, target, timeout) -> true)
                .smoke(serve(bMultirail(), bDevices(Mtu.MTU_4096, PortState.ACTIVE), calls)).build().run();

        DoctorReport r = run.apply("10.20.1.2");
        assertEquals(List.of("WRITE_BW rxe1 10.20.1.2:18515 null", "WRITE_LAT rxe1 10.20.1.2:18515 null"), calls);
        assertEquals(DoctorReport.EXIT_PASS, r.exitCode(), problems(r));

        DoctorReport none = run.apply("172.16.0.9");
        Check c = only(none, Layer.PEER, "? -> 172.16.0.9", "pair");
        assertStatus(Status.FAIL, c, none);
        assertTrue(c.result().summary().contains("no RDMA port of this host reaches 172.16.0.9"), c.result().summary());
    }
}
