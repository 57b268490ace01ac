package io.jperf.path;

import static io.jperf.path.Fixtures.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.verbs.GidEntry;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two "rails" in a private network namespace (veth pairs, nothing leaves the namespace): main
 * table default via rail 0, table 101 default via rail 1, {@code ip rule from <rail1 addr> table 101}.
 * Needs root and {@code ip}; skips otherwise. The namespace is deleted afterwards.
 */
class NetnsPolicyRoutingTest {

    private static final String NS = "jperf-path-" + ProcessHandle.current().pid();
    private static boolean created;

    @BeforeAll
    static void createNamespace() {
        created = iproute2("netns", "add", NS);
        Assumptions.assumeTrue(created, "cannot create a network namespace here (needs root and iproute2)");
        List<String[]> setup = new ArrayList<>();
        setup.add(new String[] {"link", "add", "r0", "type", "veth", "peer", "name", "p0"});
        setup.add(new String[] {"link", "add", "r1", "type", "veth", "peer", "name", "p1"});
        setup.add(new String[] {"link", "set", "r1", "mtu", "9000"});
        setup.add(new String[] {"link", "set", "p1", "mtu", "9000"});
        for (String dev : new String[] {"lo", "r0", "p0", "r1", "p1"}) {
            setup.add(new String[] {"link", "set", dev, "up"});
        }
        setup.add(new String[] {"addr", "add", "10.10.0.2/24", "dev", "r0"});
        setup.add(new String[] {"addr", "add", "10.11.0.2/24", "dev", "r1"});
        setup.add(new String[] {"route", "add", "default", "via", "10.10.0.1", "dev", "r0"});
        setup.add(new String[] {"route", "add", "default", "via", "10.11.0.1", "dev", "r1", "table", "101"});
        setup.add(new String[] {"rule", "add", "from", "10.11.0.2", "table", "101", "pref", "1000"});
        for (String[] cmd : setup) {
            String[] full = new String[cmd.length + 2];
            full[0] = "-n";
            full[1] = NS;
            System.arraycopy(cmd, 0, full, 2, cmd.length);
            assertTrue(iproute2(full), "setup: ip " + String.join(" ", full));
        }
    }

    @AfterAll
    static void deleteNamespace() {
        if (created) {
            assertTrue(iproute2("netns", "del", NS), "cleanup: ip netns del " + NS);
        }
    }

    private static Rtnetlink open() throws IOException {
        return Rtnetlink.openInNamespace(Path.of("/run/netns", NS));
    }

    @Test
    void perRailRuleSendsRail1SourceThroughTable101() throws IOException {
        try (Rtnetlink rtnl = open()) {
            Route r = rtnl.route(ip("198.51.100.7"), ip("10.11.0.2"));
            assertEquals(101, r.table(), r.toString());
            assertEquals(Optional.of("r1"), r.egressNetdev());
            assertEquals(Optional.of(ip("10.11.0.1")), r.gateway());
            assertEquals(Optional.of(new Prefix(ip("0.0.0.0"), 0)), r.matchedPrefix());
            RuleMatch m = RuleMatcher.match(rtnl.rules(Nl.AF_INET), r).match().orElseThrow();
            assertEquals("1000: from 10.11.0.2 lookup 101", m.rule().toString());
            assertTrue(m.basis().contains("table 101"), m.basis());

            Route main = rtnl.route(ip("198.51.100.7"), ip("10.10.0.2"));
            assertEquals(254, main.table());
            assertEquals(Optional.of("r0"), main.egressNetdev());
            assertEquals(32766, RuleMatcher.match(rtnl.rules(Nl.AF_INET), main).match().orElseThrow().rule().priority());

            Route unbound = rtnl.route(ip("198.51.100.7"), null);
            assertEquals(Optional.of(ip("10.10.0.2")), unbound.preferredSource(), "kernel's own source choice");
        }
    }

    @Test
    void afterACustomRuleTheLocalTableIsSeparate() throws IOException {
        try (Rtnetlink rtnl = open()) {
            Route r = rtnl.route(ip("127.0.0.1"), null);
            assertEquals(255, r.table(), r.toString());
            assertEquals("local", r.tableName());
            assertEquals(0, RuleMatcher.match(rtnl.rules(Nl.AF_INET), r).match().orElseThrow().rule().priority());
        }
    }

    @Test
    void probeOfRail1WithoutItsRuleReportsMultiRailCollapse() throws IOException {
        try (Rtnetlink rtnl = open()) {
            int r1 = ifindex(rtnl, "r1");
            GidEntry gid = Fixtures.roceV2(3, "10.11.0.2", "r1", r1);
            PortInfo port = Fixtures.ethernetPort(PortState.ACTIVE, Mtu.MTU_4096, List.of(gid));
            PathProbe probe = new PathProbe(Path.of("/nonexistent-sysfs-root"), rtnl, () -> 0);

            PathRecord ok = probe.probe(Fixtures.device("rxe9", port), port, gid, ip("198.51.100.7"), new TrafficClass(106));
            assertEquals(Optional.of("r1"), ok.route().orElseThrow().egressNetdev());
            assertEquals(9000, ok.netdev().orElseThrow().mtu(), "MTU from RTM_GETLINK when sysfs lacks the netdev");
            assertEquals("up", ok.netdev().orElseThrow().operstate());
            assertTrue(ok.netdev().orElseThrow().addresses().contains(ip("10.11.0.2")));
            assertTrue(Verdicts.evaluate(ok, null).stream().noneMatch(v -> v.id().equals("F2") && v.severity() == Severity.ERROR),
                    Verdicts.evaluate(ok, null).toString());

            assertTrue(iproute2("-n", NS, "rule", "del", "pref", "1000"), "ip rule del");
            try {
                PathRecord collapsed = probe.probe(Fixtures.device("rxe9", port), port, gid, ip("198.51.100.7"),
                        new TrafficClass(106));
                assertEquals(Optional.of("r0"), collapsed.route().orElseThrow().egressNetdev(), collapsed.toString());
                assertEquals(32766, collapsed.rule().orElseThrow().rule().priority());
                Verdict f2 = Verdicts.evaluate(collapsed, null).stream().filter(v -> v.check().equals("egress-netdev"))
                        .findFirst().orElseThrow();
                assertEquals("r0", f2.evidence().get("local.route.egress"));
                assertTrue(f2.fixHint().contains("ip rule add from 10.11.0.2 table "), f2.fixHint());
                assertTrue(PathSummary.text(collapsed).contains("dev r0"), PathSummary.text(collapsed));
            } finally {
                iproute2("-n", NS, "rule", "add", "from", "10.11.0.2", "table", "101", "pref", "1000");
            }
        }
    }

    private static int ifindex(Rtnetlink rtnl, String name) throws IOException {
        for (int i = 1; i < 64; i++) {
            Optional<LinkInfo> l = rtnl.link(i);
            if (l.isPresent() && l.get().name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError("no " + name + " in " + NS);
    }

    private static boolean iproute2(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("ip");
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
