package io.jperf.path;

import io.jperf.verbs.GidType;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortState;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Consistency checks over one or two {@link PathRecord}s, one per failure class of
 * docs/domain.md:
 * <ul>
 * <li>F1 GID: RoCE v1 or a link-local GID chosen; types, IPv4 mapping or link-locality differ
 *     between the ends; an end connects to an address that is not the other end's GID.</li>
 * <li>F2 egress: this end's kernel route leaves through a netdev other than the GID's (multi-rail
 *     collapse); INFO when an unbound socket would pick another source address (either end).</li>
 * <li>F3 return path (needs the peer's record): the peer has no route back, or its route back
 *     leaves through a netdev other than its GID's.</li>
 * <li>F4 MTU: active MTUs differ between the ends; a netdev MTU is too small for its port's
 *     active MTU. Rule: RoCE v2 needs {@code netdev MTU >= IB MTU + 96}, the RoCE headers the
 *     kernel subtracts in {@code iboe_get_mtu} (GRH/IP 40 + UDP 8 + BTH 12 + XRC ext 4 +
 *     AtomicETH 28 + ICRC 4); so 4096 needs 4192, 1024 needs 1120.</li>
 * <li>F5 QoS (only with {@link Option#QOS_EXPECTED}): traffic class 0, or ECN bits Not-ECT.</li>
 * <li>F6 state: port not ACTIVE, netdev down, no IPv4 on the RoCE netdev, no GID with an IP.</li>
 * <li>F7 NUMA: NIC and test thread on different nodes (skipped when either is -1).</li>
 * </ul>
 * Per-end checks run on the local record and, when given, on the peer's (evidence keys say
 * which end). Stateless and thread-safe.
 */
public final class Verdicts {

    /** RoCE v2 header bytes on top of the IB MTU, as the kernel's {@code iboe_get_mtu} counts them. */
    public static final int ROCE_HEADER_BYTES = 96;

    /** Evaluation switches. */
    public enum Option {
        /** The fabric has a lossless/ECN class for RDMA: F5 checks the traffic class. */
        QOS_EXPECTED
    }

    private Verdicts() {
    }

    /**
     * @param local         this end's record
     * @param peerOrNull    the other end's record, if it was exchanged; cross-end checks need it
     * @param options       evaluation switches
     * @return the findings, ordered by failure class then local before peer; empty when all is consistent
     */
    public static List<Verdict> evaluate(PathRecord local, PathRecord peerOrNull, Option... options) {
        Set<Option> opts = options.length == 0 ? EnumSet.noneOf(Option.class) : EnumSet.copyOf(List.of(options));
        List<End> ends = new ArrayList<>();
        ends.add(new End("local", local));
        if (peerOrNull != null) {
            ends.add(new End("peer", peerOrNull));
        }
        List<Verdict> out = new ArrayList<>();
        for (End e : ends) {
            gidChoice(e, out);
        }
        if (peerOrNull != null) {
            gidPair(local, peerOrNull, out);
        }
        for (End e : ends) {
            // the peer's own egress is its return path: F3 reports it, once
            egress(e, out, e.r() == local);
        }
        if (peerOrNull != null) {
            returnPath(peerOrNull, out);
        }
        if (peerOrNull != null) {
            mtuPair(local, peerOrNull, out);
        }
        for (End e : ends) {
            netdevMtu(e, out);
        }
        if (opts.contains(Option.QOS_EXPECTED)) {
            for (End e : ends) {
                qos(e, out);
            }
        }
        for (End e : ends) {
            state(e, out);
        }
        for (End e : ends) {
            numa(e, out);
        }
        return List.copyOf(out);
    }

    /**
     * The checks that hold for one end whatever its peer and destination: GID choice (F1), netdev
     * vs port MTU (F4), port/netdev/IP state (F6), NUMA placement (F7). For an end that could not
     * run a test, e.g. a peer that refused because its port is down.
     *
     * @param endName how the evidence names the end, e.g. {@code peer}
     */
    public static List<Verdict> endState(PathRecord record, String endName) {
        End e = new End(endName, record);
        List<Verdict> out = new ArrayList<>();
        gidChoice(e, out);
        netdevMtu(e, out);
        state(e, out);
        numa(e, out);
        return List.copyOf(out);
    }

    private record End(String name, PathRecord r) {
        String key(String k) {
            return name + "." + k;
        }
    }

    private static final class Evidence extends LinkedHashMap<String, String> {
        private static final long serialVersionUID = 1L;

        Evidence with(String k, Object v) {
            put(k, String.valueOf(v));
            return this;
        }
    }

    private static String ip(Optional<InetAddress> a) {
        return a.map(Addr::text).orElse("-");
    }

    private static String gidLabel(RdmaEnd r) {
        return "GID " + r.gidIndex() + " (" + r.gid() + ", " + r.gidType().label() + ")";
    }

    // ---------------------------------------------------------------- F1

    private static void gidChoice(End e, List<Verdict> out) {
        RdmaEnd r = e.r().rdma();
        if (!r.isRoce()) {
            return;
        }
        if (r.gidType() == GidType.ROCE_V1) {
            out.add(new Verdict("F1", "roce-v1", Severity.WARNING,
                    e.name() + " end uses " + gidLabel(r) + ": RoCE v1 is not routable and not what most fabrics are set up for",
                    new Evidence().with(e.key("gid.index"), r.gidIndex()).with(e.key("gid.type"), r.gidType().label())
                            .with(e.key("netdev"), r.netdev().orElse("-")),
                    "choose the RoCE v2 GID of the same address: pick the index whose "
                            + "/sys/class/infiniband/" + r.device() + "/ports/" + r.port()
                            + "/gid_attrs/types/<index> reads 'RoCE v2' (perftest -x <index>), or select the GID by IP address"));
        }
        if (r.gid().isLinkLocal()) {
            out.add(new Verdict("F1", "link-local-gid", Severity.WARNING,
                    e.name() + " end uses link-local " + gidLabel(r) + ": it cannot be routed and does not carry the netdev's IPv4 address",
                    new Evidence().with(e.key("gid.index"), r.gidIndex()).with(e.key("gid"), r.gid())
                            .with(e.key("netdev"), r.netdev().orElse("-")),
                    "use the GID of the netdev's IPv4 address (::ffff:a.b.c.d, RoCE v2); perftest picks it "
                            + "automatically without -x"));
        }
    }

    private static void gidPair(PathRecord local, PathRecord peer, List<Verdict> out) {
        RdmaEnd a = local.rdma();
        RdmaEnd b = peer.rdma();
        if (a.gidType() != b.gidType()) {
            out.add(new Verdict("F1", "gid-type-mismatch", Severity.ERROR,
                    "the ends use different GID types: local " + a.gidType().label() + ", peer " + b.gidType().label(),
                    new Evidence().with("local.gid", a.gidIndex() + " " + a.gid() + " " + a.gidType().label())
                            .with("peer.gid", b.gidIndex() + " " + b.gid() + " " + b.gidType().label()),
                    "choose GIDs of the same type on both ends (RoCE v2 unless the fabric is L2-only v1)"));
        }
        if (a.gid().isIpv4Mapped() != b.gid().isIpv4Mapped() || a.gid().isLinkLocal() != b.gid().isLinkLocal()) {
            out.add(new Verdict("F1", "gid-family-mismatch", Severity.ERROR,
                    "the ends' GIDs are of different kinds: local " + kind(a) + ", peer " + kind(b),
                    new Evidence().with("local.gid", a.gid()).with("peer.gid", b.gid()),
                    "use IPv4-mapped RoCE v2 GIDs (::ffff:a.b.c.d) on both ends, or IPv6 global on both"));
        }
        addressedElsewhere("local", local, "peer", peer, out);
        addressedElsewhere("peer", peer, "local", local, out);
    }

    /** {@code from} connects to an address that is not {@code to}'s GID address. */
    private static void addressedElsewhere(String fromName, PathRecord from, String toName, PathRecord to,
                                           List<Verdict> out) {
        if (to.source().isEmpty() || to.source().get().equals(from.destination())) {
            return;
        }
        out.add(new Verdict("F1", "destination-not-peer-gid", Severity.WARNING,
                fromName + " end connects to " + Addr.text(from.destination()) + " but the " + toName
                        + " end's GID encodes " + Addr.text(to.source().get())
                        + ": out-of-band and RDMA traffic take different addresses, possibly different netdevs",
                new Evidence().with(fromName + ".destination", Addr.text(from.destination()))
                        .with(toName + ".gid", to.rdma().gid()).with(toName + ".netdev", to.rdma().netdev().orElse("-")),
                "connect to the address of the GID the " + toName + " end uses (" + Addr.text(to.source().get())
                        + "), or choose the " + toName + " GID of the address being connected to"));
    }

    private static String kind(RdmaEnd r) {
        return r.gid().isIpv4Mapped() ? "IPv4-mapped" : r.gid().isLinkLocal() ? "link-local" : "IPv6/IB";
    }

    // ---------------------------------------------------------------- F2 / F3

    private static void egress(End e, List<Verdict> out, boolean checkEgress) {
        PathRecord p = e.r();
        RdmaEnd r = p.rdma();
        if (!r.isRoce() || r.netdev().isEmpty() || p.route().isEmpty()) {
            return;
        }
        Route route = p.route().get();
        if (route.type() == RouteType.LOCAL) {
            return; // loopback test on one host: the egress is lo by design
        }
        if (checkEgress && differentEgress(route, r)) {
            String src = ip(p.source());
            long table = 100L + Math.max(r.ifindex(), 0);
            String perRailRoute = route.gateway()
                    .map(g -> "ip route add default via " + Addr.text(g) + " dev " + r.netdev().get() + " table " + table)
                    .orElse("ip route add " + Addr.text(p.destination()) + " dev " + r.netdev().get()
                            + (p.source().isPresent() ? " src " + src : "") + " table " + table);
            out.add(new Verdict("F2", "egress-netdev", Severity.ERROR,
                    e.name() + " end: the kernel routes " + src + " -> " + Addr.text(p.destination()) + " out of "
                            + route.egressLabel() + " (table " + route.tableName() + "), but the GID is on "
                            + r.netdev().get() + ": multi-rail collapses onto one NIC and RDMA CM resolves a different device",
                    new Evidence().with(e.key("gid.netdev"), r.netdev().get()).with(e.key("route.egress"), route.egressLabel())
                            .with(e.key("route.table"), route.tableName())
                            .with(e.key("route.gateway"), ip(route.gateway()))
                            .with(e.key("rule"), p.rule().map(m -> m.rule().toString()).orElse("-")),
                    "add per-rail policy routing on the " + e.name() + " host: ip rule add from " + src + " table " + table
                            + " && " + perRailRoute + " (one table per rail; the gateway is that rail's)"));
        }
        if (p.source().isPresent() && p.unboundSource().isPresent() && !p.source().equals(p.unboundSource())) {
            out.add(new Verdict("F2", "unbound-source", Severity.INFO,
                    e.name() + " end: without binding, the kernel would send to " + Addr.text(p.destination())
                            + " from " + ip(p.unboundSource()) + ", not from the GID's " + ip(p.source()),
                    new Evidence().with(e.key("source"), ip(p.source())).with(e.key("unboundSource"), ip(p.unboundSource())),
                    "bind the source address (RDMA CM: resolve with a source address, perftest --bind_source_ip "
                            + ip(p.source()) + ") or make " + ip(p.source()) + " the preferred source of that route"));
        }
    }

    private static boolean differentEgress(Route route, RdmaEnd r) {
        if (route.egressIfindex() > 0 && r.ifindex() > 0) {
            return route.egressIfindex() != r.ifindex();
        }
        return route.egressNetdev().isPresent() && !route.egressNetdev().equals(r.netdev());
    }

    private static void returnPath(PathRecord peer, List<Verdict> out) {
        RdmaEnd r = peer.rdma();
        if (!r.isRoce()) {
            return;
        }
        if (peer.route().isEmpty()) {
            String why = peer.gaps().stream().filter(g -> g.startsWith("route:")).findFirst().orElse("route: unknown");
            out.add(new Verdict("F3", "no-return-route", Severity.ERROR,
                    "the peer has no route back to " + Addr.text(peer.destination()) + " from " + ip(peer.source()),
                    new Evidence().with("peer.destination", Addr.text(peer.destination()))
                            .with("peer.source", ip(peer.source())).with("peer.gap", why),
                    "on the peer: add a route to " + Addr.text(peer.destination()) + " through "
                            + r.netdev().orElse("its RDMA netdev") + " (per-rail table with ip rule add from "
                            + ip(peer.source()) + " table N)"));
            return;
        }
        Route route = peer.route().get();
        if (route.type() != RouteType.LOCAL && r.netdev().isPresent() && differentEgress(route, r)) {
            out.add(new Verdict("F3", "asymmetric-return", Severity.ERROR,
                    "the return path differs: the peer answers " + Addr.text(peer.destination()) + " out of "
                            + route.egressLabel() + ", but its GID is on " + r.netdev().get()
                            + "; requests and replies take different NICs and RDMA CM times out",
                    new Evidence().with("peer.gid.netdev", r.netdev().get()).with("peer.route.egress", route.egressLabel())
                            .with("peer.route.table", route.tableName())
                            .with("peer.rule", peer.rule().map(m -> m.rule().toString()).orElse("-")),
                    "on the peer: ip rule add from " + ip(peer.source()) + " table N && ip route add "
                            + Addr.text(peer.destination()) + " dev " + r.netdev().get() + " table N"
                            + " (per-rail table, mirror of this host's)"));
        }
    }

    // ---------------------------------------------------------------- F4

    private static void mtuPair(PathRecord local, PathRecord peer, List<Verdict> out) {
        Mtu a = local.rdma().activeMtu();
        Mtu b = peer.rdma().activeMtu();
        if (a != b) {
            Mtu path = a.min(b);
            out.add(new Verdict("F4", "active-mtu-mismatch", Severity.WARNING,
                    "active MTU differs: local " + a.bytes() + ", peer " + b.bytes() + "; the path runs at " + path.bytes(),
                    new Evidence().with("local.activeMtu", a.bytes()).with("peer.activeMtu", b.bytes())
                            .with("local.netdev.mtu", local.netdev().map(n -> n.mtu()).orElse(0))
                            .with("peer.netdev.mtu", peer.netdev().map(n -> n.mtu()).orElse(0)),
                    "set the same netdev MTU on both ends (RoCE: >= " + (Math.max(a.bytes(), b.bytes()) + ROCE_HEADER_BYTES)
                            + " for " + Math.max(a.bytes(), b.bytes()) + ", e.g. ip link set dev <if> mtu 9000) "
                            + "and on every switch port in between, or pin the path MTU with -m " + path.bytes()));
        }
    }

    private static void netdevMtu(End e, List<Verdict> out) {
        PathRecord p = e.r();
        if (!p.rdma().isRoce() || p.netdev().isEmpty() || p.netdev().get().mtu() <= 0) {
            return;
        }
        int netdevMtu = p.netdev().get().mtu();
        int ib = p.rdma().activeMtu().bytes();
        int needed = ib + ROCE_HEADER_BYTES;
        if (netdevMtu < needed) {
            out.add(new Verdict("F4", "netdev-mtu-too-small", Severity.ERROR,
                    e.name() + " end: netdev " + p.netdev().get().name() + " MTU " + netdevMtu + " is too small for the port's active MTU "
                            + ib + " (RoCE v2 needs >= IB MTU + " + ROCE_HEADER_BYTES + " = " + needed + ")",
                    new Evidence().with(e.key("netdev.mtu"), netdevMtu).with(e.key("activeMtu"), ib)
                            .with(e.key("required"), needed),
                    "raise the netdev MTU (ip link set dev " + p.netdev().get().name() + " mtu " + needed
                            + " or more, switch ports too) or use -m " + largestFitting(netdevMtu)));
        }
    }

    private static int largestFitting(int netdevMtu) {
        int best = Mtu.MTU_256.bytes();
        for (Mtu m : Mtu.values()) {
            if (m.bytes() + ROCE_HEADER_BYTES <= netdevMtu) {
                best = m.bytes();
            }
        }
        return best;
    }

    // ---------------------------------------------------------------- F5

    private static void qos(End e, List<Verdict> out) {
        TrafficClass tc = e.r().trafficClass();
        if (tc.value() == 0) {
            out.add(new Verdict("F5", "tclass-zero", Severity.WARNING,
                    e.name() + " end sends with traffic class 0 (DSCP 0, Not-ECT): the default queue, no ECN marking, "
                            + "congestion ends in PFC pauses or drops",
                    new Evidence().with(e.key("trafficClass"), tc.value()).with(e.key("dscp"), tc.dscp())
                            .with(e.key("ecn"), tc.ecn().label()),
                    "set the fabric's RoCE class, e.g. --tclass 106 (DSCP 26, ECT(0)); with RDMA CM use -T/--tos"));
        } else if (!tc.ecn().capable()) {
            int fixed = tc.value() | 2;
            out.add(new Verdict("F5", "not-ect", Severity.WARNING,
                    e.name() + " end sends DSCP " + tc.dscp() + " but Not-ECT: switches cannot mark CE, so no CNPs "
                            + "and DCQCN cannot slow senders",
                    new Evidence().with(e.key("trafficClass"), tc.value()).with(e.key("dscp"), tc.dscp())
                            .with(e.key("ecn"), tc.ecn().label()),
                    "set the ECN bits to ECT(0): --tclass " + fixed + " (DSCP " + tc.dscp() + ", ECT(0))"));
        }
    }

    // ---------------------------------------------------------------- F6

    private static void state(End e, List<Verdict> out) {
        PathRecord p = e.r();
        RdmaEnd r = p.rdma();
        if (r.portState() != PortState.ACTIVE) {
            out.add(new Verdict("F6", "port-not-active", Severity.ERROR,
                    e.name() + " end: " + r.device() + " port " + r.port() + " is " + r.portState() + ", not ACTIVE",
                    new Evidence().with(e.key("device"), r.device()).with(e.key("port"), r.port())
                            .with(e.key("portState"), r.portState()),
                    r.isRoce() ? "bring the netdev up (ip link set dev " + r.netdev().orElse("<if>")
                            + " up) and check the cable and switch port" : "check the cable and that a subnet manager runs (sminfo)"));
        }
        if (p.netdev().isPresent() && !p.netdev().get().usable()) {
            NetdevState n = p.netdev().get();
            out.add(new Verdict("F6", "netdev-down", Severity.ERROR,
                    e.name() + " end: netdev " + n.name() + " is " + n.operstate(),
                    new Evidence().with(e.key("netdev"), n.name()).with(e.key("operstate"), n.operstate()),
                    "ip link set dev " + n.name() + " up; if it stays " + n.operstate() + ", check carrier (cable, switch port)"));
        }
        if (r.isRoce() && p.netdev().isPresent() && !p.netdev().get().hasIpv4()) {
            NetdevState n = p.netdev().get();
            out.add(new Verdict("F6", "no-ipv4", Severity.WARNING,
                    e.name() + " end: RoCE netdev " + n.name() + " has no IPv4 address, so there is no IPv4 RoCE v2 GID",
                    new Evidence().with(e.key("netdev"), n.name()).with(e.key("addresses"),
                            n.addresses().stream().map(Addr::text).toList()),
                    "ip addr add <a.b.c.d/len> dev " + n.name() + " (the RoCE v2 GID ::ffff:a.b.c.d appears by itself)"));
        }
        if (r.isRoce() && !r.portHasIpGid()) {
            out.add(new Verdict("F6", "no-ip-gid", Severity.ERROR,
                    e.name() + " end: " + r.device() + " port " + r.port() + " has no GID with a routable IP address",
                    new Evidence().with(e.key("device"), r.device()).with(e.key("port"), r.port())
                            .with(e.key("netdev"), r.netdev().orElse("-")),
                    "add an IP address to the port's netdev" + r.netdev().map(n -> " (" + n + ")").orElse("")
                            + "; RDMA CM (-R) and perftest's default GID choice need one"));
        }
    }

    // ---------------------------------------------------------------- F7

    private static void numa(End e, List<Verdict> out) {
        NumaPlacement n = e.r().numa();
        if (!n.crossNode()) {
            return;
        }
        out.add(new Verdict("F7", "numa-mismatch", Severity.WARNING,
                e.name() + " end: NIC " + e.r().rdma().device() + " is on NUMA node " + n.nicNode() + " but the test thread ran on CPU "
                        + n.cpu() + " (node " + n.cpuNode() + "): every completion and buffer crosses the interconnect",
                new Evidence().with(e.key("nic.numaNode"), n.nicNode()).with(e.key("cpu"), n.cpu())
                        .with(e.key("cpu.numaNode"), n.cpuNode()),
                "run on the NIC's node: numactl --cpunodebind=" + n.nicNode() + " --membind=" + n.nicNode()
                        + " (or taskset -c <cpus of /sys/devices/system/node/node" + n.nicNode() + "/cpulist>)"));
    }
}
