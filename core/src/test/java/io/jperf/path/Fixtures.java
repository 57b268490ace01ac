package io.jperf.path;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Hand-built verbs objects and records for the path tests. */
final class Fixtures {

    private Fixtures() {
    }

    static InetAddress ip(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** The fixture file-system root {@code src/test/resources/path/<name>}. */
    static Path root(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/path/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    static GidEntry roceV2(int index, String ipv4, String netdev, int ifindex) {
        return new GidEntry(index, Gid.fromAddress(ip(ipv4)), GidType.ROCE_V2, Optional.of(netdev), ifindex);
    }

    static PortInfo ethernetPort(PortState state, Mtu active, List<GidEntry> gids) {
        return new PortInfo(1, state, Mtu.MTU_4096, active, LinkLayer.ETHERNET, 0, 2, 32, 256, gids);
    }

    static DeviceInfo device(String name, PortInfo port) {
        return new DeviceInfo(name, "0002:c903:0000:0001", "1.0", 0x15b3, 4123, 1024, 4096, 1024, 1L << 40, List.of(port));
    }

    /** A healthy RoCE v2 end: GID 3 = src on netdev (ifindex 5), routed out of the same netdev. */
    static PathRecord healthy(String src, String dst, String netdev) {
        RdmaEnd rdma = new RdmaEnd("mlx5_1", 1, LinkLayer.ETHERNET, PortState.ACTIVE, Mtu.MTU_4096, 3,
                Gid.fromAddress(ip(src)), GidType.ROCE_V2, Optional.of(netdev), 5, OptionalInt.empty(), true);
        Route route = new Route(ip(dst), Optional.of(ip(src)), 101, RouteType.UNICAST, 5, Optional.of(netdev),
                Optional.of(ip("10.0.1.1")), Optional.empty(), Optional.of(new Prefix(ip("0.0.0.0"), 0)), 4);
        RuleMatch rule = new RuleMatch(PolicyRule.lookup(2, 1000, new Prefix(ip(src), 32), null, 101), "test");
        NetdevState nd = new NetdevState(netdev, 9000, "up", List.of(ip(src)));
        return new PathRecord(rdma, Optional.of(ip(src)), ip(dst), Optional.of(route), Optional.of(rule),
                Optional.of(ip(src)), Optional.of(nd), new TrafficClass(106), new NumaPlacement(1, 12, 1), List.of());
    }

    static PathRecord withRdma(PathRecord r, RdmaEnd rdma) {
        return new PathRecord(rdma, r.source(), r.destination(), r.route(), r.rule(), r.unboundSource(), r.netdev(),
                r.trafficClass(), r.numa(), r.gaps());
    }

    static RdmaEnd rdma(PathRecord r, GidType type, Gid gid, Mtu activeMtu, PortState state, boolean hasIpGid) {
        RdmaEnd d = r.rdma();
        return new RdmaEnd(d.device(), d.port(), d.linkLayer(), state, activeMtu, d.gidIndex(), gid, type, d.netdev(),
                d.ifindex(), d.vlanId(), hasIpGid);
    }
}
