package io.jperf.doctor;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;
import io.jperf.verbs.RdmaUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.jperf.doctor.DoctorFixtures.doctor;
import static io.jperf.doctor.DoctorFixtures.healthyDevices;
import static io.jperf.doctor.DoctorFixtures.rxe;
import static io.jperf.doctor.DoctorFixtures.rxeGids;
import static io.jperf.doctor.DoctorFixtures.tree;
import static io.jperf.doctor.DoctorFixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The walk on the fixture host of {@code doctor/two-rails}, healthy and broken one way at a time. */
class DoctorTest {

    static Check only(DoctorReport r, Layer layer, String subject, String name) {
        List<Check> hits = r.layer(layer).stream().filter(c -> c.subject().equals(subject) && c.name().equals(name)).toList();
        assertEquals(1, hits.size(), () -> layer + " " + subject + " " + name + " in\n" + DoctorText.render(r, false));
        return hits.getFirst();
    }

    static void assertStatus(Status expected, Check c, DoctorReport r) {
        assertEquals(expected, c.status(), () -> c + "\n" + DoctorText.render(r, false));
    }

    static String problems(DoctorReport r) {
        return r.checks().stream().filter(c -> c.status() == Status.WARN || c.status() == Status.FAIL)
                .map(c -> c.status() + " " + c.subject() + " " + c.name() + ": " + c.result().summary())
                .collect(Collectors.joining("\n"));
    }

    /** The lab's scenario hosts: per-rail tables and connected routes, and no default route anywhere. */
    @Test
    void aHostWithoutADefaultRouteSaysSoAndWalksOn() {
        FakeNetwork network = FakeNetwork.multirail();
        network.routes.removeIf(e -> e.prefix().length() == 0);

        DoctorReport r = doctor(tree(), healthyDevices(), network).build().run();

        Check route = only(r, Layer.IP, "-", "default-route");
        assertStatus(Status.SKIP, route, r);
        assertTrue(route.result().summary().contains("no default route (RTM_GETROUTE to 198.51.100.1 failed: ENETUNREACH"),
                route.result().summary());
        assertEquals("", problems(r));
        assertEquals(DoctorReport.EXIT_PASS, r.exitCode());
    }

    @Test
    void healthyTwoRailHostPassesEveryLayer() {
        DoctorReport r = doctor(tree(), healthyDevices(), FakeNetwork.multirail()).build().run();

        assertEquals("", problems(r));
        assertEquals(DoctorReport.EXIT_PASS, r.exitCode());
        assertEquals(List.of(Layer.LINK, Layer.IP, Layer.RDMA, Layer.QOS, Layer.NUMA, Layer.SYSTEM),
                r.checks().stream().map(Check::layer).distinct().toList(), "layers in walk order, no peer layer");
        // link: the RDMA netdevs only, not the management NIC
        assertEquals(List.of("rail0", "rail1"), r.layer(Layer.LINK).stream().map(Check::subject).distinct().toList());
        Check speed = only(r, Layer.LINK, "rail1", "speed");
        assertTrue(speed.result().summary().contains("25 Gb/s"), speed.result().summary());
        assertEquals("9000", only(r, Layer.LINK, "rail1", "mtu").result().evidence().get("local.mtu"));
        assertEquals("4096", only(r, Layer.LINK, "rail1", "mtu").result().evidence().get("local.roceMtu"));
        // IP: each rail routes its own subnet out of itself, by its source rule
        Check egress = only(r, Layer.IP, "rail1 (rxe1/1)", "egress-netdev");
        assertEquals("rail1", egress.result().evidence().get("local.route.egress"));
        assertEquals("101", egress.result().evidence().get("local.route.table"));
        assertEquals("101: from 10.20.1.1 lookup 101", egress.result().evidence().get("local.rule"));
        assertStatus(Status.PASS, only(r, Layer.IP, "rail0", "source-rule"), r);
        assertStatus(Status.PASS, only(r, Layer.IP, "-", "default-route"), r);
        // RDMA: the GID a test chooses, and the IPv4 entry of the table
        Check choice = only(r, Layer.RDMA, "rxe1/1", "gid-choice");
        assertEquals("3", choice.result().evidence().get("local.gid.index"));
        assertEquals("GID 3 RoCE v2", only(r, Layer.RDMA, "rxe1/1", "ipv4-gid").result().evidence().get("local.10.20.1.1"));
        assertEquals("4192", only(r, Layer.RDMA, "rxe1/1", "netdev-mtu").result().evidence().get("local.required"));
        // QoS: rxe's counters read, errors all 0, no congestion counters
        Check errors = only(r, Layer.QOS, "rxe0/1", "error-counters");
        assertStatus(Status.PASS, errors, r);
        assertEquals("0", errors.result().evidence().get("local.hw.rcvd_seq_err"));
        assertStatus(Status.SKIP, only(r, Layer.QOS, "rxe0/1", "congestion-counters"), r);
        assertEquals("1200", only(r, Layer.QOS, "rxe0/1", "traffic-counters").result().evidence().get("local.hw.sent_pkts"));
        assertStatus(Status.SKIP, only(r, Layer.QOS, "rxe0/1", "traffic-class"), r);
        // NUMA: rail1's NIC is on node 0 with CPU 0; rail0's says -1
        assertStatus(Status.PASS, only(r, Layer.NUMA, "rxe1", "numa"), r);
        assertStatus(Status.SKIP, only(r, Layer.NUMA, "rxe0", "numa"), r);
        // system
        assertTrue(only(r, Layer.SYSTEM, "memlock", "memlock").result().summary().contains("CAP_IPC_LOCK"));
        assertEquals("[rxe0, rxe1]", only(r, Layer.SYSTEM, "providers", "providers").result().evidence()
                .get("local.verbsDevices"));
    }

    @Test
    void singleDefaultRouteFailsTheSecondRailsEgressAndWarnsAboutSourceRules() {
        DoctorReport r = doctor(tree(), healthyDevices(), FakeNetwork.singleDefaultRoute()).build().run();

        Check rail1 = only(r, Layer.IP, "rail1 (rxe1/1)", "egress-netdev");
        assertStatus(Status.FAIL, rail1, r);
        assertEquals("F2", rail1.result().id());
        assertEquals("rail0", rail1.result().evidence().get("local.route.egress"));
        assertEquals("rail1", rail1.result().evidence().get("local.gid.netdev"));
        assertTrue(rail1.result().fixHint().startsWith("add per-rail policy routing"), rail1.result().fixHint());
        assertStatus(Status.PASS, only(r, Layer.IP, "rail0 (rxe0/1)", "egress-netdev"), r);
        assertStatus(Status.WARN, only(r, Layer.IP, "rail1", "source-rule"), r);
        assertStatus(Status.WARN, only(r, Layer.IP, "rail0", "source-rule"), r);
        assertEquals(DoctorReport.EXIT_FAIL, r.exitCode());
    }

    @Test
    void aRailDownFailsTheLinkAndThePortWithTheirValues(@TempDir Path dir) throws IOException {
        Path root = DoctorFixtures.copy(dir);
        write(root, "sys/class/net/rail1/operstate", "down");
        Files.delete(root.resolve("sys/class/net/rail1/carrier")); // the kernel refuses the read on a down link
        List<DeviceInfo> devices = List.of(healthyDevices().get(0),
                rxe("rxe1", PortState.DOWN, Mtu.MTU_1024, rxeGids("rail1", 4, "fe80::5054:ff:fe4c:101", "10.20.1.1")));

        DoctorReport r = doctor(root, devices, FakeNetwork.multirail()).build().run();

        Check link = only(r, Layer.LINK, "rail1", "netdev-state");
        assertStatus(Status.FAIL, link, r);
        assertEquals("down", link.result().evidence().get("local.operstate"));
        assertEquals("netdev-down", link.result().finding());
        assertStatus(Status.SKIP, only(r, Layer.LINK, "rail1", "carrier"), r);
        Check port = only(r, Layer.RDMA, "rxe1/1", "port-state");
        assertStatus(Status.FAIL, port, r);
        assertEquals("DOWN", port.result().evidence().get("local.portState"));
        assertTrue(port.result().fixHint().contains("ip link set dev rail1 up"), port.result().fixHint());
        assertStatus(Status.PASS, only(r, Layer.RDMA, "rxe0/1", "port-state"), r);
        assertEquals(DoctorReport.EXIT_FAIL, r.exitCode());
    }

    @Test
    void noCarrierOnAnUpLinkFails(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        write(root, "sys/class/net/rail0/carrier", "0");
        DoctorReport r = doctor(root, healthyDevices(), FakeNetwork.multirail()).build().run();
        Check c = only(r, Layer.LINK, "rail0", "carrier");
        assertStatus(Status.FAIL, c, r);
        assertEquals("0", c.result().evidence().get("local.carrier"));
    }

    @Test
    void aNetdevMtuTooSmallForTheActiveMtuFails(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        write(root, "sys/class/net/rail1/mtu", "1500");
        DoctorReport r = doctor(root, healthyDevices(), FakeNetwork.multirail()).build().run();

        Check mtu = only(r, Layer.RDMA, "rxe1/1", "netdev-mtu");
        assertStatus(Status.FAIL, mtu, r);
        assertEquals("F4", mtu.result().id());
        assertEquals("1500", mtu.result().evidence().get("local.netdev.mtu"));
        assertEquals("4096", mtu.result().evidence().get("local.activeMtu"));
        assertTrue(mtu.result().fixHint().endsWith("-m 1024"), mtu.result().fixHint());
        assertEquals("1024", only(r, Layer.LINK, "rail1", "mtu").result().evidence().get("local.roceMtu"));
    }

    @Test
    void aRailWithoutIpv4HasOnlyTheLinkLocalGid() {
        FakeNetwork net = FakeNetwork.multirail();
        net.prefixes.put(4, new java.util.ArrayList<>(List.of(FakeNetwork.prefix("fe80::5054:ff:fe4c:101/64"))));
        List<DeviceInfo> devices = List.of(healthyDevices().get(0),
                rxe("rxe1", PortState.ACTIVE, Mtu.MTU_4096, rxeGids("rail1", 4, "fe80::5054:ff:fe4c:101")));

        DoctorReport r = doctor(tree(), devices, net).build().run();

        Check ipv4 = only(r, Layer.IP, "rail1", "ipv4-address");
        assertStatus(Status.WARN, ipv4, r);
        assertEquals("no-ipv4", ipv4.result().finding());
        assertEquals("[fe80::5054:ff:fe4c:101]", ipv4.result().evidence().get("local.addresses"));
        assertStatus(Status.FAIL, only(r, Layer.RDMA, "rxe1/1", "ip-gid"), r);
        Check routable = only(r, Layer.RDMA, "rxe1/1", "gid-routable");
        assertStatus(Status.WARN, routable, r);
        assertEquals("link-local-gid", routable.result().finding());
        assertStatus(Status.SKIP, only(r, Layer.RDMA, "rxe1/1", "ipv4-gid"), r);
        assertStatus(Status.SKIP, only(r, Layer.IP, "rail1 (rxe1/1)", "egress-netdev"), r);
        // one rail with IPv4 left: no source-rule check
        assertTrue(r.layer(Layer.IP).stream().noneMatch(c -> c.name().equals("source-rule")));
    }

    @Test
    void anIpv4AddressWithoutItsRoceV2GidFails() {
        List<DeviceInfo> devices = List.of(healthyDevices().get(0),
                rxe("rxe1", PortState.ACTIVE, Mtu.MTU_4096, rxeGids("rail1", 4, "fe80::5054:ff:fe4c:101", "10.20.1.9")));
        DoctorReport r = doctor(tree(), devices, FakeNetwork.multirail()).build().run();
        Check c = only(r, Layer.RDMA, "rxe1/1", "ipv4-gid");
        assertStatus(Status.FAIL, c, r);
        assertEquals("no RoCE v2 GID", c.result().evidence().get("local.10.20.1.1"));
    }

    @Test
    void errorAndCongestionCountersWarnWithTheirValues(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        write(root, "sys/class/infiniband/rxe1/ports/1/hw_counters/rcvd_seq_err", "7");
        write(root, "sys/class/infiniband/rxe1/ports/1/hw_counters/retry_exceeded_err", "2");
        write(root, "sys/class/infiniband/rxe1/ports/1/hw_counters/np_cnp_sent", "5");
        write(root, "sys/class/infiniband/rxe1/ports/1/counters/port_rcv_errors", "0");

        DoctorReport r = doctor(root, healthyDevices(), FakeNetwork.multirail()).build().run();

        Check errors = only(r, Layer.QOS, "rxe1/1", "error-counters");
        assertStatus(Status.WARN, errors, r);
        assertTrue(errors.result().summary().endsWith("hw.rcvd_seq_err=7, hw.retry_exceeded_err=2"
                + " (against 2300 packets sent and received)"), errors.result().summary());
        assertEquals("2300", errors.result().evidence().get("local.packets"), "hw.sent_pkts 1200 + hw.rcvd_pkts 1100");
        assertEquals("0", errors.result().evidence().get("local.counters.port_rcv_errors"), "both directories read");
        Check cnp = only(r, Layer.QOS, "rxe1/1", "congestion-counters");
        assertStatus(Status.WARN, cnp, r);
        assertEquals("5", cnp.result().evidence().get("local.hw.np_cnp_sent"));
        assertStatus(Status.PASS, only(r, Layer.QOS, "rxe0/1", "error-counters"), r);
        assertEquals(DoctorReport.EXIT_WARN, r.exitCode(), problems(r));
    }

    @Test
    void qosExpectedChecksTheTrafficClassAndShowsEcnSwitches(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        write(root, "sys/class/net/rail1/ecn/roce_np/enable/3", "1");
        write(root, "sys/class/net/rail1/ecn/roce_np/enable/0", "0");
        DoctorReport zero = doctor(root, healthyDevices(), FakeNetwork.multirail()).qosExpected(true).build().run();
        Check tc = only(zero, Layer.QOS, "rxe1/1", "traffic-class");
        assertStatus(Status.WARN, tc, zero);
        assertEquals("tclass-zero", tc.result().finding());
        assertEquals("[3]", tc.result().evidence().get("local.ecn.roce_np.enabledPriorities"));

        DoctorReport ect = doctor(root, healthyDevices(), FakeNetwork.multirail()).qosExpected(true).trafficClass(106)
                .build().run();
        assertStatus(Status.PASS, only(ect, Layer.QOS, "rxe1/1", "traffic-class"), ect);
    }

    @Test
    void memlockAgainstWhatTestsRegister(@TempDir Path dir) {
        Path root = DoctorFixtures.copy(dir);
        io.jperf.path.Sysfs sys = new io.jperf.path.Sysfs(root);
        assertEquals(Status.PASS, Status.of(SystemChecks.memlock(sys).status()), "root: CAP_IPC_LOCK");

        write(root, "proc/self/status", "Name:\tjava\nCapEff:\t0000000000000000");
        var debian = SystemChecks.memlock(sys);
        assertEquals(Status.WARN, Status.of(debian.status()), debian.summary());
        assertEquals("8388608", debian.evidence().get("local.memlock.soft"));
        assertEquals("16777216", debian.evidence().get("local.need.allSizes"));

        write(root, "proc/self/limits", "Max locked memory         65536                65536                bytes");
        var tiny = SystemChecks.memlock(sys);
        assertEquals(Status.FAIL, Status.of(tiny.status()), tiny.summary());
        assertTrue(tiny.summary().contains("131072"), tiny.summary());

        write(root, "proc/self/limits", "Max locked memory         unlimited            unlimited            bytes");
        assertEquals(Status.PASS, Status.of(SystemChecks.memlock(sys).status()));
    }

    @Test
    void withoutRdmaTheLinkAndRouteLayersStillRunAndTheDeviceLayerFailsWithTheOptions(@TempDir Path dir)
            throws IOException {
        Path root = DoctorFixtures.copy(dir);
        for (String gone : List.of("sys/class/infiniband", "sys/module", "dev/infiniband", "sys/class/net/rail0",
                "sys/class/net/rail1")) {
            deleteTree(root.resolve(gone));
        }
        FakeNetwork net = new FakeNetwork().link(2, "eth0", "192.168.1.10/24").rule(32766, null, 254)
                .route(254, "192.168.1.0/24", 2, null).route(254, "0.0.0.0/0", 2, "192.168.1.1");
        DoctorReport r = doctor(root, List.of(), net).devices(() -> {
            throw new RdmaUnavailableException("ibv_get_device_list failed: errno 38 ENOSYS (Function not implemented)."
                    + " Hint: this kernel has no RDMA support");
        }).build().run();

        assertStatus(Status.PASS, only(r, Layer.LINK, "eth0", "netdev-state"), r);
        assertStatus(Status.PASS, only(r, Layer.LINK, "eth0", "speed"), r);
        assertStatus(Status.PASS, only(r, Layer.IP, "eth0", "ipv4-address"), r);
        Check egress = only(r, Layer.IP, "eth0", "egress-netdev");
        assertStatus(Status.PASS, egress, r);
        assertEquals("eth0", egress.result().evidence().get("local.netdev"));
        assertEquals("192.168.1.1", only(r, Layer.IP, "-", "default-route").result().evidence().get("local.default.gateway"));
        Check rdma = only(r, Layer.RDMA, "-", "rdma-devices");
        assertStatus(Status.FAIL, rdma, r);
        assertTrue(rdma.result().summary().contains("no RDMA support"), rdma.result().summary());
        assertEquals("absent", rdma.result().evidence().get("sys.class.infiniband"));
        assertEquals("absent", rdma.result().evidence().get("module.ib_core"));
        assertEquals("ibv_get_device_list failed: errno 38 ENOSYS (Function not implemented)",
                rdma.result().evidence().get("verbs.error"));
        for (String option : List.of("mlx5_ib", "rdma link add rxe0 type rxe netdev", "lab/rdma-lab setup")) {
            assertTrue(rdma.result().fixHint().contains(option), option + " in " + rdma.result().fixHint());
        }
        assertEquals(1, r.layer(Layer.RDMA).size(), "no port checks without a device");
        assertStatus(Status.FAIL, only(r, Layer.SYSTEM, "modules", "modules"), r);
        assertEquals(DoctorReport.EXIT_FAIL, r.exitCode());
    }

    @Test
    void deviceFilter() {
        DoctorReport missing = doctor(tree(), healthyDevices(), FakeNetwork.multirail()).device("rxe9").build().run();
        Check c = only(missing, Layer.RDMA, "rxe9", "rdma-devices");
        assertStatus(Status.FAIL, c, missing);
        assertTrue(c.result().summary().endsWith("devices here: rxe0, rxe1"), c.result().summary());
        assertEquals("no device named 'rxe9' to walk", only(missing, Layer.LINK, "-", "netdevs").result().summary());

        DoctorReport one = doctor(tree(), healthyDevices(), FakeNetwork.multirail()).device("rxe1").build().run();
        assertEquals(List.of("rail1"), one.layer(Layer.LINK).stream().map(Check::subject).distinct().toList());
        assertEquals(DoctorReport.EXIT_PASS, one.exitCode(), problems(one));
    }

    @Test
    void aKernelDeviceWithoutItsProviderFails() {
        DoctorReport r = doctor(tree(), List.of(healthyDevices().get(0)), FakeNetwork.multirail()).build().run();
        Check c = only(r, Layer.SYSTEM, "providers", "providers");
        assertStatus(Status.FAIL, c, r);
        assertTrue(c.result().summary().contains("[rxe1]"), c.result().summary());
    }

    @Test
    void withoutRtnetlinkTheRouteLayerWarnsAndTheRestRuns() {
        DoctorReport r = doctor(tree(), healthyDevices(), null).network(() -> {
            throw new IOException("socket: EPERM");
        }).build().run();
        Check c = only(r, Layer.IP, "-", "routes");
        assertStatus(Status.WARN, c, r);
        assertTrue(c.result().summary().contains("EPERM"), c.result().summary());
        assertStatus(Status.PASS, only(r, Layer.RDMA, "rxe1/1", "gid-choice"), r);
    }

    @Test
    void neighbourAddressOnTheRailsSubnet() {
        assertEquals("10.20.1.2", HostFacts.neighbour(FakeNetwork.prefix("10.20.1.1/24")).orElseThrow().getHostAddress());
        assertEquals("10.20.1.1", HostFacts.neighbour(FakeNetwork.prefix("10.20.1.7/24")).orElseThrow().getHostAddress());
        assertEquals("10.0.0.4", HostFacts.neighbour(FakeNetwork.prefix("10.0.0.5/31")).orElseThrow().getHostAddress());
        assertTrue(HostFacts.neighbour(FakeNetwork.prefix("10.0.0.5/32")).isEmpty());
        assertTrue(HostFacts.neighbour(FakeNetwork.prefix("fd00::1/64")).isEmpty());
    }

    @Test
    void railSyntax() {
        assertEquals(new Doctor.Rail("rxe1", "10.20.1.2"), Doctor.Rail.parse("rxe1=10.20.1.2"));
        for (String bad : List.of("rxe1", "=10.0.0.1", "rxe1=", "a=b=c")) {
            assertThrowsIae(() -> Doctor.Rail.parse(bad));
        }
        assertThrowsIae(() -> Doctor.builder().rails(List.of(Doctor.Rail.parse("rxe1=10.0.0.1"))).build());
        assertThrowsIae(() -> Doctor.builder().port(0).build());
    }

    private static void assertThrowsIae(Runnable r) {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, r::run);
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> files = Files.walk(p)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Test
    void skippedChecksDoNotChangeTheExitCode() {
        DoctorReport r = new DoctorReport("h", java.util.Optional.empty(), java.util.Optional.empty(), List.of(
                new Check(Layer.LINK, "x", io.jperf.path.CheckResult.skip("", "speed", "no speed", new io.jperf.path.Evidence()))));
        assertEquals(DoctorReport.EXIT_PASS, r.exitCode());
        assertFalse(DoctorText.render(r, false).contains("\u001b"));
    }
}
