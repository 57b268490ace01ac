package io.jperf.path;

import static io.jperf.path.Fixtures.healthy;
import static io.jperf.path.Fixtures.ip;
import static io.jperf.path.Fixtures.rdma;
import static io.jperf.path.Fixtures.withRdma;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.verbs.Gid;
import io.jperf.verbs.GidType;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/** Every verdict, positive and negative, on hand-built records. */
class VerdictsTest {

    static final PathRecord LOCAL = healthy("10.0.1.5", "10.0.2.7", "eth2");
    static final PathRecord PEER = healthy("10.0.2.7", "10.0.1.5", "eth2");

    static List<String> checks(List<Verdict> vs) {
        return vs.stream().map(v -> v.id() + "/" + v.check()).toList();
    }

    static Verdict only(List<Verdict> vs, String check) {
        List<Verdict> hits = vs.stream().filter(v -> v.check().equals(check)).toList();
        assertEquals(1, hits.size(), checks(vs).toString());
        return hits.get(0);
    }

    static PathRecord with(PathRecord r, Optional<Route> route, Optional<NetdevState> netdev, TrafficClass tc,
                           NumaPlacement numa, Optional<java.net.InetAddress> unbound, List<String> gaps) {
        return new PathRecord(r.rdma(), r.source(), r.destination(), route, r.rule(), unbound, netdev, tc, numa, gaps);
    }

    static Route egress(PathRecord r, String netdev, int ifindex, long table) {
        Route x = r.route().orElseThrow();
        return new Route(x.destination(), x.source(), (int) table, x.type(), ifindex, Optional.of(netdev), x.gateway(),
                x.preferredSource(), x.matchedPrefix(), x.protocol());
    }

    @Test
    void healthyPairHasNoVerdicts() {
        assertEquals(List.of(), Verdicts.evaluate(LOCAL, PEER, Verdicts.Option.QOS_EXPECTED));
        assertEquals(List.of(), Verdicts.evaluate(LOCAL, null));
    }

    // ---------------------------------------------------------------- F1

    @Test
    void f1RoceV1AndLinkLocalChosen() {
        PathRecord v1 = withRdma(LOCAL, rdma(LOCAL, GidType.ROCE_V1, LOCAL.rdma().gid(), Mtu.MTU_4096, PortState.ACTIVE, true));
        Verdict v = only(Verdicts.evaluate(v1, null), "roce-v1");
        assertEquals("F1", v.id());
        assertEquals(Severity.WARNING, v.severity());
        assertEquals("RoCE v1", v.evidence().get("local.gid.type"));
        assertTrue(v.fixHint().contains("/sys/class/infiniband/mlx5_1/ports/1/gid_attrs/types/"), v.fixHint());

        Gid ll = Gid.parse("fe80:0000:0000:0000:0000:0000:0000:0001");
        PathRecord linkLocal = withRdma(LOCAL, rdma(LOCAL, GidType.ROCE_V2, ll, Mtu.MTU_4096, PortState.ACTIVE, true));
        assertEquals("F1", only(Verdicts.evaluate(linkLocal, null), "link-local-gid").id());
    }

    @Test
    void f1TypeAndKindMismatchBetweenEnds() {
        PathRecord peerV1 = withRdma(PEER, rdma(PEER, GidType.ROCE_V1, PEER.rdma().gid(), Mtu.MTU_4096, PortState.ACTIVE, true));
        List<Verdict> vs = Verdicts.evaluate(LOCAL, peerV1);
        Verdict v = only(vs, "gid-type-mismatch");
        assertEquals(Severity.ERROR, v.severity());
        assertTrue(v.summary().contains("local RoCE v2, peer RoCE v1"), v.summary());
        assertTrue(checks(vs).contains("F1/roce-v1"), "the peer's own v1 choice is reported too");

        PathRecord peerV6 = withRdma(PEER, rdma(PEER, GidType.ROCE_V2, Gid.fromAddress(ip("fd00::7")), Mtu.MTU_4096,
                PortState.ACTIVE, true));
        Verdict kind = only(Verdicts.evaluate(LOCAL, peerV6), "gid-family-mismatch");
        assertTrue(kind.summary().contains("local IPv4-mapped, peer IPv6/IB"), kind.summary());
    }

    @Test
    void f1DestinationIsNotThePeersGid() {
        PathRecord peerElsewhere = healthy("10.0.2.8", "10.0.1.5", "eth2");
        Verdict v = only(Verdicts.evaluate(LOCAL, peerElsewhere), "destination-not-peer-gid");
        assertEquals("10.0.2.7", v.evidence().get("local.destination"));
        assertTrue(v.summary().contains("GID encodes 10.0.2.8"), v.summary());
    }

    // ---------------------------------------------------------------- F2

    @Test
    void f2EgressDiffersFromGidNetdev() {
        PathRecord collapsed = with(LOCAL, Optional.of(egress(LOCAL, "eth0", 2, 254)), LOCAL.netdev(), LOCAL.trafficClass(),
                LOCAL.numa(), LOCAL.unboundSource(), List.of());
        Verdict v = only(Verdicts.evaluate(collapsed, null), "egress-netdev");
        assertEquals("F2", v.id());
        assertEquals(Severity.ERROR, v.severity());
        assertEquals("eth2", v.evidence().get("local.gid.netdev"));
        assertEquals("eth0", v.evidence().get("local.route.egress"));
        assertEquals("main", v.evidence().get("local.route.table"));
        assertTrue(v.fixHint().contains("ip rule add from 10.0.1.5 table 105"), v.fixHint());
        assertTrue(v.fixHint().contains("ip route add default via 10.0.1.1 dev eth2 table 105"), v.fixHint());
    }

    @Test
    void f2NotForLocalRoutesOrInfiniband() {
        Route local = new Route(ip("10.0.1.5"), Optional.of(ip("10.0.1.5")), 255, RouteType.LOCAL, 1, Optional.of("lo"),
                Optional.empty(), Optional.empty(), Optional.empty(), -1);
        PathRecord loop = with(LOCAL, Optional.of(local), LOCAL.netdev(), LOCAL.trafficClass(), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        assertEquals(List.of(), Verdicts.evaluate(loop, null));
    }

    @Test
    void f2UnboundSourceIsInfo() {
        PathRecord r = with(LOCAL, LOCAL.route(), LOCAL.netdev(), LOCAL.trafficClass(), LOCAL.numa(),
                Optional.of(ip("10.0.0.5")), List.of());
        Verdict v = only(Verdicts.evaluate(r, null), "unbound-source");
        assertEquals(Severity.INFO, v.severity());
        assertEquals("10.0.0.5", v.evidence().get("local.unboundSource"));
    }

    // ---------------------------------------------------------------- F3

    @Test
    void f3PeerHasNoRouteBack() {
        PathRecord peer = with(PEER, Optional.empty(), PEER.netdev(), PEER.trafficClass(), PEER.numa(), Optional.empty(),
                List.of("route: RTM_GETROUTE to 10.0.1.5 from 10.0.2.7 failed: ENETUNREACH (101): Network is unreachable"));
        Verdict v = only(Verdicts.evaluate(LOCAL, peer), "no-return-route");
        assertEquals("F3", v.id());
        assertTrue(v.evidence().get("peer.gap").contains("ENETUNREACH"), v.evidence().toString());
        assertTrue(Verdicts.evaluate(LOCAL, null).isEmpty(), "no peer record: no F3");
    }

    @Test
    void f3PeerRepliesThroughAnotherNic() {
        PathRecord peer = with(PEER, Optional.of(egress(PEER, "eth0", 2, 254)), PEER.netdev(), PEER.trafficClass(),
                PEER.numa(), PEER.unboundSource(), List.of());
        List<Verdict> vs = Verdicts.evaluate(LOCAL, peer);
        Verdict v = only(vs, "asymmetric-return");
        assertEquals("eth0", v.evidence().get("peer.route.egress"));
        assertTrue(v.fixHint().startsWith("on the peer: ip rule add from 10.0.2.7 table N"), v.fixHint());
        assertEquals(List.of("F3/asymmetric-return"), checks(vs), "the peer's egress is its return path, reported once");
    }

    // ---------------------------------------------------------------- F4

    @Test
    void f4ActiveMtuMismatch() {
        PathRecord peer1k = withRdma(PEER, rdma(PEER, GidType.ROCE_V2, PEER.rdma().gid(), Mtu.MTU_1024, PortState.ACTIVE, true));
        Verdict v = only(Verdicts.evaluate(LOCAL, peer1k), "active-mtu-mismatch");
        assertEquals("F4", v.id());
        assertTrue(v.summary().endsWith("the path runs at 1024"), v.summary());
        assertTrue(v.fixHint().contains("-m 1024"), v.fixHint());
    }

    @Test
    void f4NetdevTooSmallUsesIbMtuPlus96() {
        NetdevState small = new NetdevState("eth2", 4191, "up", List.of(ip("10.0.1.5")));
        PathRecord r = with(LOCAL, LOCAL.route(), Optional.of(small), LOCAL.trafficClass(), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        Verdict v = only(Verdicts.evaluate(r, null), "netdev-mtu-too-small");
        assertEquals(Severity.ERROR, v.severity());
        assertEquals("4192", v.evidence().get("local.required"));
        assertTrue(v.fixHint().endsWith("-m 2048"), v.fixHint());

        NetdevState enough = new NetdevState("eth2", 4192, "up", List.of(ip("10.0.1.5")));
        assertEquals(List.of(), Verdicts.evaluate(with(LOCAL, LOCAL.route(), Optional.of(enough), LOCAL.trafficClass(),
                LOCAL.numa(), LOCAL.unboundSource(), List.of()), null));
    }

    // ---------------------------------------------------------------- F5

    @Test
    void f5OnlyWhenQosExpected() {
        PathRecord zero = with(LOCAL, LOCAL.route(), LOCAL.netdev(), new TrafficClass(0), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        assertEquals(List.of(), Verdicts.evaluate(zero, null));
        Verdict v = only(Verdicts.evaluate(zero, null, Verdicts.Option.QOS_EXPECTED), "tclass-zero");
        assertEquals("F5", v.id());
        assertEquals("Not-ECT", v.evidence().get("local.ecn"));

        PathRecord notEct = with(LOCAL, LOCAL.route(), LOCAL.netdev(), new TrafficClass(104), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        Verdict n = only(Verdicts.evaluate(notEct, null, Verdicts.Option.QOS_EXPECTED), "not-ect");
        assertEquals("26", n.evidence().get("local.dscp"));
        assertTrue(n.fixHint().contains("--tclass 106"), n.fixHint());

        PathRecord ect1 = with(LOCAL, LOCAL.route(), LOCAL.netdev(), new TrafficClass(105), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        assertEquals(List.of(), Verdicts.evaluate(ect1, null, Verdicts.Option.QOS_EXPECTED));
    }

    // ---------------------------------------------------------------- F6

    @Test
    void f6PortDownNetdevDownNoIpv4NoIpGid() {
        PathRecord portDown = withRdma(LOCAL, rdma(LOCAL, GidType.ROCE_V2, LOCAL.rdma().gid(), Mtu.MTU_4096, PortState.DOWN, false));
        List<Verdict> vs = Verdicts.evaluate(portDown, null);
        assertEquals(List.of("F6/port-not-active", "F6/no-ip-gid"), checks(vs));
        assertEquals("DOWN", vs.get(0).evidence().get("local.portState"));

        NetdevState down = new NetdevState("eth2", 9000, "lowerlayerdown", List.of());
        PathRecord r = with(LOCAL, LOCAL.route(), Optional.of(down), LOCAL.trafficClass(), LOCAL.numa(),
                LOCAL.unboundSource(), List.of());
        assertEquals(List.of("F6/netdev-down", "F6/no-ipv4"), checks(Verdicts.evaluate(r, null)));
        assertTrue(only(Verdicts.evaluate(r, null), "netdev-down").fixHint().startsWith("ip link set dev eth2 up"));

        NetdevState unknown = new NetdevState("eth2", 9000, "unknown", List.of(ip("10.0.1.5")));
        assertEquals(List.of(), Verdicts.evaluate(with(LOCAL, LOCAL.route(), Optional.of(unknown), LOCAL.trafficClass(),
                LOCAL.numa(), LOCAL.unboundSource(), List.of()), null), "operstate unknown is normal for virtual links");
    }

    // ---------------------------------------------------------------- F7

    @Test
    void f7CrossNodeOnlyWhenBothKnown() {
        PathRecord cross = with(LOCAL, LOCAL.route(), LOCAL.netdev(), LOCAL.trafficClass(), new NumaPlacement(1, 2, 0),
                LOCAL.unboundSource(), List.of());
        Verdict v = only(Verdicts.evaluate(cross, null), "numa-mismatch");
        assertEquals("F7", v.id());
        assertEquals("1", v.evidence().get("local.nic.numaNode"));
        assertTrue(v.fixHint().startsWith("run on the NIC's node: numactl --cpunodebind=1 --membind=1"), v.fixHint());

        for (NumaPlacement unknown : List.of(new NumaPlacement(-1, 2, 0), new NumaPlacement(1, -1, -1))) {
            assertEquals(List.of(), Verdicts.evaluate(with(LOCAL, LOCAL.route(), LOCAL.netdev(), LOCAL.trafficClass(),
                    unknown, LOCAL.unboundSource(), List.of()), null), unknown.toString());
        }
    }

    @Test
    void orderIsByFailureClass() {
        PathRecord bad = with(withRdma(LOCAL, rdma(LOCAL, GidType.ROCE_V1, LOCAL.rdma().gid(), Mtu.MTU_4096, PortState.DOWN, true)),
                Optional.of(egress(LOCAL, "eth0", 2, 254)), LOCAL.netdev(), new TrafficClass(0), new NumaPlacement(0, 5, 1),
                LOCAL.unboundSource(), List.of());
        assertEquals(List.of("F1/roce-v1", "F2/egress-netdev", "F5/tclass-zero", "F6/port-not-active", "F7/numa-mismatch"),
                checks(Verdicts.evaluate(bad, null, Verdicts.Option.QOS_EXPECTED)));
    }
}
