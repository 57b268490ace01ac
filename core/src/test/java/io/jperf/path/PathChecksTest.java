package io.jperf.path;

import static io.jperf.path.Fixtures.healthy;
import static io.jperf.path.Fixtures.ip;
import static io.jperf.path.Fixtures.rdma;
import static io.jperf.path.Fixtures.withRdma;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * The checks behind the verdicts, passes included: what {@code jperf doctor} shows is what a
 * test's verdicts keep.
 */
class PathChecksTest {

    static final PathRecord LOCAL = VerdictsTest.LOCAL;
    static final PathRecord PEER = VerdictsTest.PEER;

    @Test
    void aHealthyPairPassesEveryCheckWithTheValuesItRead() {
        List<CheckResult> all = Verdicts.checks(LOCAL, PEER, Verdicts.Option.QOS_EXPECTED);
        assertTrue(all.stream().allMatch(c -> c.status() == CheckResult.Status.PASS), all.toString());
        assertEquals(List.of(), Verdicts.findings(all));
        CheckResult back = all.stream().filter(c -> c.name().equals("return-path")).findFirst().orElseThrow();
        assertEquals("eth2", back.evidence().get("peer.route.egress"));
        assertEquals("", back.fixHint());
        CheckResult mtu = all.stream().filter(c -> c.name().equals("active-mtu-pair")).findFirst().orElseThrow();
        assertEquals("both ends run active MTU 4096", mtu.summary());
        assertEquals(all.size(), all.stream().map(c -> c.name() + c.evidence().keySet()).distinct().count(),
                "each check once per end");
    }

    /** Records that trip every check at least once. */
    static List<PathRecord[]> broken() {
        PathRecord v1Down = withRdma(LOCAL, rdma(LOCAL, GidType.ROCE_V1, Gid.parse("fe80:0000:0000:0000:0000:0000:0000:0001"),
                Mtu.MTU_4096, PortState.DOWN, false));
        Route out0 = VerdictsTest.egress(LOCAL, "eth0", 2, 254);
        PathRecord everything = VerdictsTest.with(v1Down, Optional.of(out0),
                Optional.of(new NetdevState("eth2", 1500, "down", List.of())), new TrafficClass(104),
                new NumaPlacement(1, 3, 0), Optional.of(ip("10.0.0.9")), List.of());
        PathRecord peerBack = VerdictsTest.with(withRdma(PEER, rdma(PEER, GidType.ROCE_V2, PEER.rdma().gid(), Mtu.MTU_1024,
                PortState.ACTIVE, true)), Optional.of(VerdictsTest.egress(PEER, "eth0", 2, 254)), PEER.netdev(),
                new TrafficClass(0), PEER.numa(), PEER.unboundSource(), List.of());
        PathRecord peerNoRoute = VerdictsTest.with(PEER, Optional.empty(), PEER.netdev(), PEER.trafficClass(), PEER.numa(),
                Optional.empty(), List.of("route: unreachable"));
        return List.of(new PathRecord[] {everything, peerBack}, new PathRecord[] {LOCAL, peerNoRoute});
    }

    @Test
    void findingsAreTheVerdictsAndCarryTheirChecksStableName() {
        int findings = 0;
        for (PathRecord[] pair : broken()) {
            List<CheckResult> all = Verdicts.checks(pair[0], pair[1], Verdicts.Option.QOS_EXPECTED);
            assertEquals(Verdicts.evaluate(pair[0], pair[1], Verdicts.Option.QOS_EXPECTED), Verdicts.findings(all));
            for (CheckResult c : all) {
                if (c.isFinding()) {
                    findings++;
                    Verdict v = c.verdict().orElseThrow();
                    assertEquals(c.finding(), v.check());
                    assertEquals(c.name(), PathChecks.asResult(v).name(), "a verdict that travels maps back to " + c.name());
                    assertFalse(c.fixHint().isEmpty(), c.name());
                }
            }
        }
        assertTrue(findings >= 15, "the fixtures trip most checks: " + findings);
    }

    @Test
    void checksThatDoNotApplySaySo() {
        NumaPlacement unknown = new NumaPlacement(-1, 3, 0);
        CheckResult numa = PathChecks.numa("local", "mlx5_1", unknown);
        assertEquals(CheckResult.Status.SKIP, numa.status());
        assertTrue(numa.summary().contains("reports no NUMA node"), numa.summary());
        assertTrue(numa.verdict().isEmpty());
    }

    @Test
    void ipv4GidsFindsEachAddressesRoceV2Entry() {
        PortInfo port = Fixtures.ethernetPort(PortState.ACTIVE, Mtu.MTU_4096, List.of(
                new GidEntry(0, Gid.fromAddress(ip("10.0.1.5")), GidType.ROCE_V1, Optional.of("eth2"), 5),
                Fixtures.roceV2(1, "10.0.1.5", "eth2", 5)));
        CheckResult ok = PathChecks.ipv4Gids("local", "mlx5_1", port, "eth2", List.of(ip("10.0.1.5"), ip("fd00::5")));
        assertEquals(CheckResult.Status.PASS, ok.status());
        assertEquals("GID 1 RoCE v2", ok.evidence().get("local.10.0.1.5"));
        assertEquals("2 (RoCE v1: 1, RoCE v2: 1)", ok.evidence().get("local.gids"));

        CheckResult missing = PathChecks.ipv4Gids("local", "mlx5_1", port, "eth2", List.of(ip("10.0.1.5"), ip("10.0.1.6")));
        assertEquals(CheckResult.Status.ERROR, missing.status());
        assertTrue(missing.summary().contains("no RoCE v2 GID for 10.0.1.6"), missing.summary());
    }

    @Test
    void sourceRulePerRail() {
        List<PolicyRule> rules = List.of(PolicyRule.lookup(2, 0, null, null, 255),
                PolicyRule.lookup(2, 101, new Prefix(ip("10.20.1.1"), 32), null, 101),
                PolicyRule.lookup(2, 32766, null, null, 254));
        CheckResult rail1 = PathChecks.sourceRule("local", ip("10.20.1.1"), "rail1", rules);
        assertEquals(CheckResult.Status.PASS, rail1.status());
        assertEquals("101: from 10.20.1.1 lookup 101", rail1.evidence().get("local.rule"));
        CheckResult rail0 = PathChecks.sourceRule("local", ip("10.20.0.1"), "rail0", rules);
        assertEquals(CheckResult.Status.WARNING, rail0.status());
        assertTrue(rail0.fixHint().startsWith("ip rule add from 10.20.0.1 table N"), rail0.fixHint());
    }

    @Test
    void routeEgressOfAPlainNetdevNamesTheAddress() {
        Route viaEth0 = new Route(ip("10.0.1.2"), Optional.of(ip("10.0.1.5")), 254, RouteType.UNICAST, 2,
                Optional.of("eth0"), Optional.empty(), Optional.empty(), Optional.empty(), 2);
        CheckResult r = PathChecks.routeEgress("local", "address", "netdev", "eth2", 5, Optional.of(ip("10.0.1.5")),
                ip("10.0.1.2"), viaEth0, Optional.empty());
        assertEquals(CheckResult.Status.ERROR, r.status());
        assertTrue(r.summary().contains("but the address is on eth2"), r.summary());
        assertEquals("eth2", r.evidence().get("local.netdev"));
    }

    @Test
    void healthyRecordAlsoPassesAlone() {
        PathRecord r = healthy("10.0.1.5", "10.0.2.7", "eth2");
        assertTrue(Verdicts.checks(r, null).stream().noneMatch(CheckResult::isFinding));
    }
}
