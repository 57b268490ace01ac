package io.jperf.path;

import static io.jperf.path.Fixtures.ip;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

/** {@link PathProbe} on the fixture sysfs tree with a scripted network view. */
class PathProbeTest {

    /** A two-rail host: eth2 (ifindex 5, 10.0.1.5) and eth3 (ifindex 6, 10.0.0.5); main default via eth3. */
    static final class TwoRails implements NetworkView {
        boolean railRule = true;
        boolean unreachable;
        final List<String> asked = new ArrayList<>();

        @Override
        public Route route(InetAddress dst, InetAddress src) throws IOException {
            asked.add(dst.getHostAddress() + " from " + (src == null ? "-" : src.getHostAddress()));
            if (unreachable) {
                throw new RtnetlinkException("RTM_GETROUTE to " + dst.getHostAddress(), 101, Optional.empty());
            }
            boolean rail = railRule && src != null && src.equals(ip("10.0.1.5"));
            return new Route(dst, Optional.ofNullable(src), rail ? 101 : 254, RouteType.UNICAST, rail ? 5 : 6,
                    Optional.of(rail ? "eth2" : "eth3"), Optional.of(ip(rail ? "10.0.1.1" : "10.0.0.1")),
                    src == null ? Optional.of(ip("10.0.0.5")) : Optional.empty(),
                    Optional.of(new Prefix(ip("0.0.0.0"), 0)), 3);
        }

        @Override
        public List<PolicyRule> rules(int family) {
            return List.of(PolicyRule.lookup(2, 0, null, null, 255),
                    PolicyRule.lookup(2, 1000, new Prefix(ip("10.0.1.5"), 32), null, 101),
                    PolicyRule.lookup(2, 32766, null, null, 254));
        }

        @Override
        public Optional<LinkInfo> link(int ifindex) {
            return ifindex == 5 ? Optional.of(new LinkInfo(5, "eth2", 9000, "up", OptionalInt.empty())) : Optional.empty();
        }

        @Override
        public List<InetAddress> addresses(int ifindex) {
            return ifindex == 5 ? List.of(ip("10.0.1.5"), ip("fe80::1")) : List.of();
        }
    }

    static final GidEntry GID = Fixtures.roceV2(3, "10.0.1.5", "eth2", 5);
    static final PortInfo PORT = Fixtures.ethernetPort(PortState.ACTIVE, Mtu.MTU_4096, List.of(
            new GidEntry(0, Gid.parse("fe80:0000:0000:0000:0000:0000:0000:0001"), GidType.ROCE_V2, Optional.of("eth2"), 5),
            GID));

    @Test
    void fullRecordFromFixtureAndView() {
        TwoRails net = new TwoRails();
        PathProbe probe = new PathProbe(Fixtures.root("two-nodes"), net, () -> 6);
        PathRecord r = probe.probe(Fixtures.device("mlx5_1", PORT), PORT, GID, ip("10.0.2.7"), new TrafficClass(106));

        assertEquals("mlx5_1", r.rdma().device());
        assertEquals(3, r.rdma().gidIndex());
        assertEquals(GidType.ROCE_V2, r.rdma().gidType());
        assertEquals(Optional.of("eth2"), r.rdma().netdev());
        assertTrue(r.rdma().portHasIpGid());
        assertEquals(Optional.of(ip("10.0.1.5")), r.source());
        Route route = r.route().orElseThrow();
        assertEquals(101, route.table());
        assertEquals(Optional.of("eth2"), route.egressNetdev());
        assertEquals(1000, r.rule().orElseThrow().rule().priority());
        assertEquals(Optional.of(ip("10.0.0.5")), r.unboundSource(), "second lookup without a source");
        assertEquals(List.of("10.0.2.7 from 10.0.1.5", "10.0.2.7 from -"), net.asked);
        NetdevState nd = r.netdev().orElseThrow();
        assertEquals(9000, nd.mtu());
        assertEquals("up", nd.operstate());
        assertTrue(nd.hasIpv4());
        assertEquals(new NumaPlacement(1, 6, 1), r.numa());
        assertEquals(26, r.trafficClass().dscp());
        assertEquals(List.of(), r.gaps());
    }

    @Test
    void vlanFromProcAndCrossNodeThread() {
        GidEntry vlanGid = Fixtures.roceV2(5, "10.0.1.5", "eth2.100", 5);
        PathProbe probe = new PathProbe(Fixtures.root("two-nodes"), new TwoRails(), () -> 2);
        PathRecord r = probe.probe(Fixtures.device("mlx5_1", PORT), PORT, vlanGid, ip("10.0.2.7"), new TrafficClass(0));
        assertEquals(OptionalInt.of(100), r.rdma().vlanId());
        assertEquals(new NumaPlacement(1, 2, 0), r.numa());
        assertTrue(r.numa().crossNode());
    }

    @Test
    void noRouteBecomesAGapNotAnException() {
        TwoRails net = new TwoRails();
        net.unreachable = true;
        PathRecord r = new PathProbe(Fixtures.root("two-nodes"), net, () -> -1)
                .probe(Fixtures.device("mlx5_1", PORT), PORT, GID, ip("10.0.2.7"), new TrafficClass(106));
        assertTrue(r.route().isEmpty());
        assertTrue(r.rule().isEmpty());
        assertTrue(r.gaps().get(0).startsWith("route: RTM_GETROUTE to 10.0.2.7 failed: ENETUNREACH (101)"), r.gaps().toString());
        assertEquals(new NumaPlacement(1, -1, -1), r.numa());
    }

    @Test
    void linkLocalGidHasNoSourceAndSaysWhy() {
        GidEntry ll = PORT.gid(0).orElseThrow();
        PathRecord r = new PathProbe(Fixtures.root("two-nodes"), new TwoRails(), () -> 0)
                .probe(Fixtures.device("mlx5_1", PORT), PORT, ll, ip("10.0.2.7"), new TrafficClass(106));
        assertTrue(r.source().isEmpty());
        assertTrue(r.gaps().stream().anyMatch(g -> g.startsWith("source: GID 0")), r.gaps().toString());
        assertEquals(254, r.route().orElseThrow().table(), "looked up without a source");
        assertEquals(Optional.of(ip("10.0.0.5")), r.unboundSource());
    }

    @Test
    void netdevUnknownEverywhereIsAGap() {
        GidEntry ghost = Fixtures.roceV2(4, "10.0.1.5", "eth7", 9);
        PathRecord r = new PathProbe(Fixtures.root("two-nodes"), new TwoRails(), () -> 0)
                .probe(Fixtures.device("rxe0", PORT), PORT, ghost, ip("10.0.2.7"), new TrafficClass(106));
        assertTrue(r.gaps().stream().anyMatch(g -> g.startsWith("netdev: eth7 not found")), r.gaps().toString());
        assertEquals(0, r.netdev().orElseThrow().mtu());
    }

    @Test
    void liveProbeOfLoopbackOnThisHost() throws IOException {
        GidEntry lo = Fixtures.roceV2(1, "127.0.0.1", "lo", 1);
        PortInfo port = Fixtures.ethernetPort(PortState.ACTIVE, Mtu.MTU_1024, List.of(lo));
        try (PathProbe probe = PathProbe.live()) {
            PathRecord r = probe.probe(Fixtures.device("rxe0", port), port, lo, ip("127.0.0.1"), new TrafficClass(106));
            assertEquals(RouteType.LOCAL, r.route().orElseThrow().type());
            assertEquals(Optional.of("lo"), r.route().orElseThrow().egressNetdev());
            assertEquals(0, r.rule().orElseThrow().rule().priority());
            assertEquals(65536, r.netdev().orElseThrow().mtu());
            assertTrue(r.numa().cpu() >= 0);
            assertEquals(List.of(), r.gaps());
            assertTrue(Verdicts.evaluate(r, null).isEmpty(), Verdicts.evaluate(r, null).toString());
        }
    }
}
