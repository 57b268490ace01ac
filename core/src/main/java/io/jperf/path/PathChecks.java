package io.jperf.path;

import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The path checks, one implementation each, by failure class of docs/domain.md. Every check
 * returns a {@link CheckResult}: passed with the values it read, skipped when it does not apply,
 * or a finding. {@link Verdicts} (a test's verdicts, the sweep's pre-flight check) keeps the
 * findings; {@code jperf doctor} shows every outcome. Per-end checks take the end's name
 * ({@code local}, {@code peer}), which prefixes their evidence keys.
 *
 * <p>Each check reads only what it needs (a netdev, a port, a route), so a caller that has no
 * full {@link PathRecord}, e.g. a netdev without RDMA, runs the same code. Stateless and
 * thread-safe.
 */
public final class PathChecks {

    /** RoCE v2 header bytes on top of the IB MTU, as the kernel's {@code iboe_get_mtu} counts them. */
    public static final int ROCE_HEADER_BYTES = 96;

    /** The stable check name of each finding whose name differs (a verdict names what is wrong). */
    private static final Map<String, String> CHECK_OF_FINDING = Map.ofEntries(
            Map.entry("roce-v1", "gid-type"), Map.entry("link-local-gid", "gid-routable"),
            Map.entry("gid-type-mismatch", "gid-type-pair"), Map.entry("gid-family-mismatch", "gid-kind-pair"),
            Map.entry("destination-not-peer-gid", "destination-gid"), Map.entry("no-return-route", "return-path"),
            Map.entry("asymmetric-return", "return-path"), Map.entry("active-mtu-mismatch", "active-mtu-pair"),
            Map.entry("netdev-mtu-too-small", "netdev-mtu"), Map.entry("tclass-zero", "traffic-class"),
            Map.entry("not-ect", "traffic-class"), Map.entry("port-not-active", "port-state"),
            Map.entry("netdev-down", "netdev-state"), Map.entry("no-ipv4", "ipv4-address"),
            Map.entry("no-ip-gid", "ip-gid"), Map.entry("numa-mismatch", "numa"));

    private PathChecks() {
    }

    /**
     * A verdict that arrived without its check (e.g. with a failure) as the outcome of that check:
     * the same stable name as when the check runs here.
     */
    public static CheckResult asResult(Verdict verdict) {
        return CheckResult.found(CHECK_OF_FINDING.getOrDefault(verdict.check(), verdict.check()), verdict);
    }

    private static String key(String end, String k) {
        return end + "." + k;
    }

    private static String ip(Optional<InetAddress> a) {
        return a.map(Addr::text).orElse("-");
    }

    private static String gidLabel(RdmaEnd r) {
        return "GID " + r.gidIndex() + " (" + r.gid() + ", " + r.gidType().label() + ")";
    }

    private static CheckResult notRoce(String id, String name, RdmaEnd r) {
        return CheckResult.skip(id, name, r.device() + " port " + r.port() + " is InfiniBand: no IP path",
                new Evidence().with("linkLayer", r.linkLayer().perftestName()));
    }

    // ---------------------------------------------------------------- F1

    /** F1 {@code roce-v1}: the chosen GID should be RoCE v2. */
    public static CheckResult gidType(String end, RdmaEnd r) {
        if (!r.isRoce()) {
            return notRoce("F1", "gid-type", r);
        }
        Evidence ev = new Evidence().with(key(end, "gid.index"), r.gidIndex()).with(key(end, "gid.type"), r.gidType().label())
                .with(key(end, "netdev"), r.netdev().orElse("-"));
        if (r.gidType() != GidType.ROCE_V1) {
            return CheckResult.pass("F1", "gid-type", end + " end uses " + gidLabel(r), ev);
        }
        return CheckResult.found("gid-type", new Verdict("F1", "roce-v1", Severity.WARNING,
                end + " end uses " + gidLabel(r) + ": RoCE v1 is not routable and not what most fabrics are set up for",
                ev, "choose the RoCE v2 GID of the same address: pick the index whose "
                        + "/sys/class/infiniband/" + r.device() + "/ports/" + r.port()
                        + "/gid_attrs/types/<index> reads 'RoCE v2' (perftest -x <index>), or select the GID by IP address"));
    }

    /** F1 {@code link-local-gid}: the chosen GID should carry a routable address. */
    public static CheckResult gidLinkLocal(String end, RdmaEnd r) {
        if (!r.isRoce()) {
            return notRoce("F1", "gid-routable", r);
        }
        Evidence ev = new Evidence().with(key(end, "gid.index"), r.gidIndex()).with(key(end, "gid"), r.gid())
                .with(key(end, "netdev"), r.netdev().orElse("-"));
        if (!r.gid().isLinkLocal()) {
            return CheckResult.pass("F1", "gid-routable", end + " end's GID " + r.gidIndex() + " " + r.gid()
                    + " is routable", ev);
        }
        return CheckResult.found("gid-routable", new Verdict("F1", "link-local-gid", Severity.WARNING,
                end + " end uses link-local " + gidLabel(r) + ": it cannot be routed and does not carry the netdev's IPv4 address",
                ev, "use the GID of the netdev's IPv4 address (::ffff:a.b.c.d, RoCE v2); perftest picks it "
                        + "automatically without -x"));
    }

    /** F1 {@code gid-type-mismatch}: both ends use the same GID type. */
    public static CheckResult gidTypePair(PathRecord local, PathRecord peer) {
        RdmaEnd a = local.rdma();
        RdmaEnd b = peer.rdma();
        Evidence ev = new Evidence().with("local.gid", a.gidIndex() + " " + a.gid() + " " + a.gidType().label())
                .with("peer.gid", b.gidIndex() + " " + b.gid() + " " + b.gidType().label());
        if (a.gidType() == b.gidType()) {
            return CheckResult.pass("F1", "gid-type-pair", "both ends use " + a.gidType().label() + " GIDs", ev);
        }
        return CheckResult.found("gid-type-pair", new Verdict("F1", "gid-type-mismatch", Severity.ERROR,
                "the ends use different GID types: local " + a.gidType().label() + ", peer " + b.gidType().label(),
                ev, "choose GIDs of the same type on both ends (RoCE v2 unless the fabric is L2-only v1)"));
    }

    /** F1 {@code gid-family-mismatch}: both GIDs IPv4-mapped, or both link-local, or both other. */
    public static CheckResult gidFamilyPair(PathRecord local, PathRecord peer) {
        RdmaEnd a = local.rdma();
        RdmaEnd b = peer.rdma();
        Evidence ev = new Evidence().with("local.gid", a.gid()).with("peer.gid", b.gid());
        if (a.gid().isIpv4Mapped() == b.gid().isIpv4Mapped() && a.gid().isLinkLocal() == b.gid().isLinkLocal()) {
            return CheckResult.pass("F1", "gid-kind-pair", "both ends' GIDs are " + kind(a), ev);
        }
        return CheckResult.found("gid-kind-pair", new Verdict("F1", "gid-family-mismatch", Severity.ERROR,
                "the ends' GIDs are of different kinds: local " + kind(a) + ", peer " + kind(b),
                ev, "use IPv4-mapped RoCE v2 GIDs (::ffff:a.b.c.d) on both ends, or IPv6 global on both"));
    }

    /** F1 {@code destination-not-peer-gid}: {@code from} connects to the address of {@code to}'s GID. */
    public static CheckResult destinationIsPeerGid(String fromName, PathRecord from, String toName, PathRecord to) {
        Evidence ev = new Evidence().with(fromName + ".destination", Addr.text(from.destination()))
                .with(toName + ".gid", to.rdma().gid()).with(toName + ".netdev", to.rdma().netdev().orElse("-"));
        if (to.source().isEmpty()) {
            return CheckResult.skip("F1", "destination-gid", "the " + toName + " end's GID encodes no address", ev);
        }
        if (to.source().get().equals(from.destination())) {
            return CheckResult.pass("F1", "destination-gid", fromName + " end connects to "
                    + Addr.text(from.destination()) + ", the address of the " + toName + " end's GID", ev);
        }
        return CheckResult.found("destination-gid", new Verdict("F1", "destination-not-peer-gid", Severity.WARNING,
                fromName + " end connects to " + Addr.text(from.destination()) + " but the " + toName
                        + " end's GID encodes " + Addr.text(to.source().get())
                        + ": out-of-band and RDMA traffic take different addresses, possibly different netdevs",
                ev, "connect to the address of the GID the " + toName + " end uses (" + Addr.text(to.source().get())
                        + "), or choose the " + toName + " GID of the address being connected to"));
    }

    private static String kind(RdmaEnd r) {
        return r.gid().isIpv4Mapped() ? "IPv4-mapped" : r.gid().isLinkLocal() ? "link-local" : "IPv6/IB";
    }

    // ---------------------------------------------------------------- F2 / F3

    /** F2 {@code egress-netdev} on an end's record: the route to the peer leaves through the GID's netdev. */
    public static CheckResult egressNetdev(String end, PathRecord p) {
        RdmaEnd r = p.rdma();
        if (!r.isRoce()) {
            return notRoce("F2", "egress-netdev", r);
        }
        if (r.netdev().isEmpty() || p.route().isEmpty()) {
            return CheckResult.skip("F2", "egress-netdev", r.netdev().isEmpty()
                            ? end + " end: the GID has no netdev" : end + " end: no route to " + Addr.text(p.destination()),
                    new Evidence().with(key(end, "gap"), p.gaps().stream().filter(g -> g.startsWith("route:"))
                            .findFirst().orElse("-")));
        }
        return routeEgress(end, "GID", "gid.netdev", r.netdev().get(), r.ifindex(), p.source(), p.destination(),
                p.route().get(), p.rule());
    }

    /**
     * F2 {@code egress-netdev}, the check itself: the kernel's route from {@code source} to
     * {@code destination} leaves through {@code netdev}, the netdev that carries the address
     * ({@code owner}: {@code GID} for an RDMA end, {@code address} for a plain netdev).
     *
     * @param netdevKey the evidence key of the netdev, e.g. {@code gid.netdev}
     */
    public static CheckResult routeEgress(String end, String owner, String netdevKey, String netdev, int ifindex,
                                          Optional<InetAddress> source, InetAddress destination, Route route,
                                          Optional<RuleMatch> rule) {
        Evidence ev = new Evidence().with(key(end, netdevKey), netdev).with(key(end, "route.egress"), route.egressLabel())
                .with(key(end, "route.table"), route.tableName())
                .with(key(end, "route.gateway"), ip(route.gateway()))
                .with(key(end, "rule"), rule.map(m -> m.rule().toString()).orElse("-"));
        String src = ip(source);
        if (route.type() == RouteType.LOCAL) {
            return CheckResult.skip("F2", "egress-netdev", end + " end: " + Addr.text(destination)
                    + " is an address of this host (loopback test): the egress is lo by design", ev);
        }
        if (!differentEgress(route, ifindex, Optional.of(netdev))) {
            return CheckResult.pass("F2", "egress-netdev", end + " end: the kernel routes " + src + " -> "
                    + Addr.text(destination) + " out of " + route.egressLabel() + " (table " + route.tableName() + ")", ev);
        }
        long table = 100L + Math.max(ifindex, 0);
        String perRailRoute = route.gateway()
                .map(g -> "ip route add default via " + Addr.text(g) + " dev " + netdev + " table " + table)
                .orElse("ip route add " + Addr.text(destination) + " dev " + netdev
                        + (source.isPresent() ? " src " + src : "") + " table " + table);
        return CheckResult.found("egress-netdev", new Verdict("F2", "egress-netdev", Severity.ERROR,
                end + " end: the kernel routes " + src + " -> " + Addr.text(destination) + " out of "
                        + route.egressLabel() + " (table " + route.tableName() + "), but the " + owner + " is on "
                        + netdev + ": multi-rail collapses onto one NIC and RDMA CM resolves a different device",
                ev, "add per-rail policy routing on the " + end + " host: ip rule add from " + src + " table " + table
                        + " && " + perRailRoute + " (one table per rail; the gateway is that rail's)"));
    }

    /** F2 {@code unbound-source} (INFO): an unbound socket would leave from the GID's own address. */
    public static CheckResult unboundSource(String end, PathRecord p) {
        if (!p.rdma().isRoce()) {
            return notRoce("F2", "unbound-source", p.rdma());
        }
        Evidence ev = new Evidence().with(key(end, "source"), ip(p.source())).with(key(end, "unboundSource"), ip(p.unboundSource()));
        if (p.rdma().netdev().isEmpty() || p.route().isEmpty() || p.route().get().type() == RouteType.LOCAL) {
            return CheckResult.skip("F2", "unbound-source", end + " end: no route to a remote address to compare", ev);
        }
        if (p.source().isEmpty() || p.unboundSource().isEmpty()) {
            return CheckResult.skip("F2", "unbound-source", end + " end: " + (p.source().isEmpty()
                    ? "the GID has no routable source address" : "the kernel names no preferred source"), ev);
        }
        if (p.source().equals(p.unboundSource())) {
            return CheckResult.pass("F2", "unbound-source", end + " end: an unbound socket to " + Addr.text(p.destination())
                    + " also leaves from " + ip(p.source()), ev);
        }
        return CheckResult.found("unbound-source", new Verdict("F2", "unbound-source", Severity.INFO,
                end + " end: without binding, the kernel would send to " + Addr.text(p.destination())
                        + " from " + ip(p.unboundSource()) + ", not from the GID's " + ip(p.source()),
                ev, "bind the source address (RDMA CM: resolve with a source address, perftest --bind_source_ip "
                        + ip(p.source()) + ") or make " + ip(p.source()) + " the preferred source of that route"));
    }

    private static boolean differentEgress(Route route, int ifindex, Optional<String> netdev) {
        if (route.egressIfindex() > 0 && ifindex > 0) {
            return route.egressIfindex() != ifindex;
        }
        return route.egressNetdev().isPresent() && !route.egressNetdev().equals(netdev);
    }

    /** F3 {@code return-path}, from the peer's record: the peer routes back out of its GID's netdev. */
    public static CheckResult returnPath(PathRecord peer) {
        RdmaEnd r = peer.rdma();
        if (!r.isRoce()) {
            return notRoce("F3", "return-path", r);
        }
        if (peer.route().isEmpty()) {
            String why = peer.gaps().stream().filter(g -> g.startsWith("route:")).findFirst().orElse("route: unknown");
            return CheckResult.found("return-path", new Verdict("F3", "no-return-route", Severity.ERROR,
                    "the peer has no route back to " + Addr.text(peer.destination()) + " from " + ip(peer.source()),
                    new Evidence().with("peer.destination", Addr.text(peer.destination()))
                            .with("peer.source", ip(peer.source())).with("peer.gap", why),
                    "on the peer: add a route to " + Addr.text(peer.destination()) + " through "
                            + r.netdev().orElse("its RDMA netdev") + " (per-rail table with ip rule add from "
                            + ip(peer.source()) + " table N)"));
        }
        Route route = peer.route().get();
        Evidence ev = new Evidence().with("peer.gid.netdev", r.netdev().orElse("-")).with("peer.route.egress", route.egressLabel())
                .with("peer.route.table", route.tableName())
                .with("peer.rule", peer.rule().map(m -> m.rule().toString()).orElse("-"));
        if (route.type() == RouteType.LOCAL || r.netdev().isEmpty() || !differentEgress(route, r.ifindex(), r.netdev())) {
            return CheckResult.pass("F3", "return-path", "the peer answers " + Addr.text(peer.destination()) + " out of "
                    + route.egressLabel() + " (table " + route.tableName() + ")", ev);
        }
        return CheckResult.found("return-path", new Verdict("F3", "asymmetric-return", Severity.ERROR,
                "the return path differs: the peer answers " + Addr.text(peer.destination()) + " out of "
                        + route.egressLabel() + ", but its GID is on " + r.netdev().get()
                        + "; requests and replies take different NICs and RDMA CM times out",
                ev, "on the peer: ip rule add from " + ip(peer.source()) + " table N && ip route add "
                        + Addr.text(peer.destination()) + " dev " + r.netdev().get() + " table N"
                        + " (per-rail table, mirror of this host's)"));
    }

    // ---------------------------------------------------------------- F4

    /** F4 {@code active-mtu-mismatch}: both ports run the same active MTU. */
    public static CheckResult activeMtuPair(PathRecord local, PathRecord peer) {
        Mtu a = local.rdma().activeMtu();
        Mtu b = peer.rdma().activeMtu();
        Evidence ev = new Evidence().with("local.activeMtu", a.bytes()).with("peer.activeMtu", b.bytes())
                .with("local.netdev.mtu", local.netdev().map(n -> n.mtu()).orElse(0))
                .with("peer.netdev.mtu", peer.netdev().map(n -> n.mtu()).orElse(0));
        if (a == b) {
            return CheckResult.pass("F4", "active-mtu-pair", "both ends run active MTU " + a.bytes(), ev);
        }
        Mtu path = a.min(b);
        return CheckResult.found("active-mtu-pair", new Verdict("F4", "active-mtu-mismatch", Severity.WARNING,
                "active MTU differs: local " + a.bytes() + ", peer " + b.bytes() + "; the path runs at " + path.bytes(),
                ev, "set the same netdev MTU on both ends (RoCE: >= " + (Math.max(a.bytes(), b.bytes()) + ROCE_HEADER_BYTES)
                        + " for " + Math.max(a.bytes(), b.bytes()) + ", e.g. ip link set dev <if> mtu 9000) "
                        + "and on every switch port in between, or pin the path MTU with -m " + path.bytes()));
    }

    /**
     * F4 {@code netdev-mtu-too-small}: RoCE v2 needs {@code netdev MTU >= IB MTU + 96}, the headers
     * the kernel subtracts in {@code iboe_get_mtu}; so 4096 needs 4192, 1024 needs 1120.
     */
    public static CheckResult netdevMtu(String end, RdmaEnd r, Optional<NetdevState> netdev) {
        if (!r.isRoce()) {
            return notRoce("F4", "netdev-mtu", r);
        }
        return netdevMtu(end, r.activeMtu(), netdev);
    }

    /** F4 {@code netdev-mtu-too-small} on a RoCE port's active MTU and its netdev. */
    public static CheckResult netdevMtu(String end, Mtu activeMtu, Optional<NetdevState> netdev) {
        if (netdev.isEmpty() || netdev.get().mtu() <= 0) {
            return CheckResult.skip("F4", "netdev-mtu", end + " end: the netdev's MTU is not known",
                    new Evidence().with(key(end, "netdev"), netdev.map(NetdevState::name).orElse("-")));
        }
        int netdevMtu = netdev.get().mtu();
        int ib = activeMtu.bytes();
        int needed = ib + ROCE_HEADER_BYTES;
        Evidence ev = new Evidence().with(key(end, "netdev.mtu"), netdevMtu).with(key(end, "activeMtu"), ib)
                .with(key(end, "required"), needed);
        if (netdevMtu >= needed) {
            return CheckResult.pass("F4", "netdev-mtu", end + " end: netdev " + netdev.get().name() + " MTU "
                    + netdevMtu + " carries the port's active MTU " + ib + " (needs >= " + needed + ")", ev);
        }
        return CheckResult.found("netdev-mtu", new Verdict("F4", "netdev-mtu-too-small", Severity.ERROR,
                end + " end: netdev " + netdev.get().name() + " MTU " + netdevMtu + " is too small for the port's active MTU "
                        + ib + " (RoCE v2 needs >= IB MTU + " + ROCE_HEADER_BYTES + " = " + needed + ")",
                ev, "raise the netdev MTU (ip link set dev " + netdev.get().name() + " mtu " + needed
                        + " or more, switch ports too) or use -m " + largestFitting(netdevMtu)));
    }

    /** The largest IB MTU whose RoCE v2 frames fit a netdev MTU (256 at least). */
    public static int largestFitting(int netdevMtu) {
        int best = Mtu.MTU_256.bytes();
        for (Mtu m : Mtu.values()) {
            if (m.bytes() + ROCE_HEADER_BYTES <= netdevMtu) {
                best = m.bytes();
            }
        }
        return best;
    }

    // ---------------------------------------------------------------- F5

    /** F5 {@code traffic-class}: the traffic class names a DSCP and is ECN-capable. */
    public static CheckResult trafficClass(String end, TrafficClass tc) {
        Evidence ev = new Evidence().with(key(end, "trafficClass"), tc.value()).with(key(end, "dscp"), tc.dscp())
                .with(key(end, "ecn"), tc.ecn().label());
        if (tc.value() == 0) {
            return CheckResult.found("traffic-class", new Verdict("F5", "tclass-zero", Severity.WARNING,
                    end + " end sends with traffic class 0 (DSCP 0, Not-ECT): the default queue, no ECN marking, "
                            + "congestion ends in PFC pauses or drops",
                    ev, "set the fabric's RoCE class, e.g. --tclass 106 (DSCP 26, ECT(0)); with RDMA CM use -T/--tos"));
        }
        if (!tc.ecn().capable()) {
            int fixed = tc.value() | 2;
            return CheckResult.found("traffic-class", new Verdict("F5", "not-ect", Severity.WARNING,
                    end + " end sends DSCP " + tc.dscp() + " but Not-ECT: switches cannot mark CE, so no CNPs "
                            + "and DCQCN cannot slow senders",
                    ev, "set the ECN bits to ECT(0): --tclass " + fixed + " (DSCP " + tc.dscp() + ", ECT(0))"));
        }
        return CheckResult.pass("F5", "traffic-class", end + " end sends DSCP " + tc.dscp() + ", " + tc.ecn().label(), ev);
    }

    // ---------------------------------------------------------------- F6

    /** F6 {@code port-not-active}. */
    public static CheckResult portActive(String end, RdmaEnd r) {
        return portActive(end, r.device(), r.port(), r.portState(), r.isRoce(), r.netdev());
    }

    /** F6 {@code port-not-active}, on a port's facts (a port may have no GID to build an end from). */
    public static CheckResult portActive(String end, String device, int port, PortState state, boolean roce,
                                         Optional<String> netdev) {
        Evidence ev = new Evidence().with(key(end, "device"), device).with(key(end, "port"), port)
                .with(key(end, "portState"), state);
        if (state == PortState.ACTIVE) {
            return CheckResult.pass("F6", "port-state", end + " end: " + device + " port " + port + " is ACTIVE", ev);
        }
        return CheckResult.found("port-state", new Verdict("F6", "port-not-active", Severity.ERROR,
                end + " end: " + device + " port " + port + " is " + state + ", not ACTIVE",
                ev, roce ? "bring the netdev up (ip link set dev " + netdev.orElse("<if>")
                        + " up) and check the cable and switch port" : "check the cable and that a subnet manager runs (sminfo)"));
    }

    /** F6 {@code netdev-down}: the netdev's operstate lets traffic pass. */
    public static CheckResult netdevUp(String end, NetdevState n) {
        Evidence ev = new Evidence().with(key(end, "netdev"), n.name()).with(key(end, "operstate"), n.operstate());
        if (n.usable()) {
            return CheckResult.pass("F6", "netdev-state", end + " end: netdev " + n.name() + " is " + n.operstate(), ev);
        }
        return CheckResult.found("netdev-state", new Verdict("F6", "netdev-down", Severity.ERROR,
                end + " end: netdev " + n.name() + " is " + n.operstate(),
                ev, "ip link set dev " + n.name() + " up; if it stays " + n.operstate() + ", check carrier (cable, switch port)"));
    }

    /** F6 {@code no-ipv4}: a RoCE netdev has an IPv4 address (and so an IPv4 RoCE v2 GID). */
    public static CheckResult ipv4(String end, NetdevState n) {
        Evidence ev = new Evidence().with(key(end, "netdev"), n.name()).with(key(end, "addresses"),
                n.addresses().stream().map(Addr::text).toList());
        if (n.hasIpv4()) {
            return CheckResult.pass("F6", "ipv4-address", end + " end: RoCE netdev " + n.name() + " has IPv4 "
                    + n.addresses().stream().filter(a -> a instanceof java.net.Inet4Address).map(Addr::text).toList(), ev);
        }
        return CheckResult.found("ipv4-address", new Verdict("F6", "no-ipv4", Severity.WARNING,
                end + " end: RoCE netdev " + n.name() + " has no IPv4 address, so there is no IPv4 RoCE v2 GID",
                ev, "ip addr add <a.b.c.d/len> dev " + n.name() + " (the RoCE v2 GID ::ffff:a.b.c.d appears by itself)"));
    }

    /** F6 {@code no-ip-gid}: the port has a GID with a routable IP address. */
    public static CheckResult ipGid(String end, RdmaEnd r) {
        if (!r.isRoce()) {
            return notRoce("F6", "ip-gid", r);
        }
        return ipGid(end, r.device(), r.port(), r.portHasIpGid(), r.netdev());
    }

    /** F6 {@code no-ip-gid} on a RoCE port's facts. */
    public static CheckResult ipGid(String end, String device, int port, boolean portHasIpGid, Optional<String> netdev) {
        Evidence ev = new Evidence().with(key(end, "device"), device).with(key(end, "port"), port)
                .with(key(end, "netdev"), netdev.orElse("-"));
        if (portHasIpGid) {
            return CheckResult.pass("F6", "ip-gid", end + " end: " + device + " port " + port
                    + " has a GID with a routable IP address", ev);
        }
        return CheckResult.found("ip-gid", new Verdict("F6", "no-ip-gid", Severity.ERROR,
                end + " end: " + device + " port " + port + " has no GID with a routable IP address",
                ev, "add an IP address to the port's netdev" + netdev.map(n -> " (" + n + ")").orElse("")
                        + "; RDMA CM (-R) and perftest's default GID choice need one"));
    }

    /**
     * F1 {@code ipv4-gid}, the GID table's sanity: every IPv4 address of a RoCE port's netdev has
     * its RoCE v2 GID {@code ::ffff:a.b.c.d} in the port's table (the kernel adds it when the
     * address is added; without it, tests cannot choose the address).
     *
     * @param addresses the netdev's addresses (non-IPv4 ones are ignored)
     */
    public static CheckResult ipv4Gids(String end, String device, PortInfo port, String netdev,
                                       List<InetAddress> addresses) {
        Evidence ev = new Evidence().with(key(end, "netdev"), netdev)
                .with(key(end, "gids"), port.gids().size() + " (" + gidTypes(port) + ")");
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (InetAddress a : addresses) {
            if (!(a instanceof Inet4Address)) {
                continue;
            }
            checked++;
            Gid wanted = Gid.fromAddress(a);
            Optional<GidEntry> v2 = port.gids().stream()
                    .filter(g -> g.gid().equals(wanted) && g.type() == GidType.ROCE_V2).findFirst();
            ev.with(key(end, Addr.text(a)), v2.map(g -> "GID " + g.index() + " RoCE v2").orElse("no RoCE v2 GID"));
            if (v2.isEmpty()) {
                missing.add(Addr.text(a));
            }
        }
        String where = device + " port " + port.number();
        if (checked == 0) {
            return CheckResult.skip("F1", "ipv4-gid", end + " end: " + netdev + " has no IPv4 address, so " + where
                    + " has no IPv4 RoCE v2 GID to look for", ev);
        }
        if (missing.isEmpty()) {
            return CheckResult.pass("F1", "ipv4-gid", end + " end: each IPv4 address of " + netdev
                    + " has its RoCE v2 GID on " + where, ev);
        }
        return CheckResult.found("ipv4-gid", new Verdict("F1", "ipv4-gid", Severity.ERROR,
                end + " end: " + where + " has no RoCE v2 GID for " + String.join(", ", missing) + " of " + netdev
                        + ": tests cannot use that address",
                ev, "check that " + netdev + " is the port's netdev (`rdma link show`) and that RoCE v2 is enabled "
                        + "(/sys/kernel/config/rdma_cm/" + device + "/ports/" + port.number() + "/default_roce_mode); "
                        + "re-adding the address (ip addr del/add) makes the kernel add its GIDs again"));
    }

    private static String gidTypes(PortInfo port) {
        Map<String, Long> byType = new TreeMap<>();
        port.gids().forEach(g -> byType.merge(g.type().label(), 1L, Long::sum));
        return byType.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * F2 {@code source-rule}: where several rails share a host, a policy rule selects a table by
     * the rail's source address ({@code ip rule add from ADDR table N}), so replies and routed
     * traffic of each rail leave through that rail.
     *
     * @param rules the host's IPv4 policy rules, in the kernel's order
     */
    public static CheckResult sourceRule(String end, InetAddress address, String netdev, List<PolicyRule> rules) {
        Evidence ev = new Evidence().with(key(end, "netdev"), netdev).with(key(end, "address"), Addr.text(address));
        Optional<PolicyRule> rule = rules.stream()
                .filter(r -> !r.invert() && r.action() == RuleAction.TO_TABLE && r.from().isPresent()
                        && r.from().get().length() > 0 && r.from().get().contains(address))
                .findFirst();
        ev.with(key(end, "rule"), rule.map(PolicyRule::toString).orElse("-"));
        if (rule.isPresent()) {
            return CheckResult.pass("F2", "source-rule", end + " end: rule '" + rule.get() + "' selects the table of "
                    + Addr.text(address) + " (" + netdev + ")", ev);
        }
        return CheckResult.found("source-rule", new Verdict("F2", "source-rule", Severity.WARNING,
                end + " end: several rails share this host but no rule selects a table by source " + Addr.text(address)
                        + " (" + netdev + "): its replies and routed traffic follow the main table",
                ev, "ip rule add from " + Addr.text(address) + " table N && ip route add <rail subnet> dev " + netdev
                        + " src " + Addr.text(address) + " table N (one table per rail)"));
    }

    // ---------------------------------------------------------------- F7

    /** F7 {@code numa-mismatch}: the NIC and the thread that probed sit on the same NUMA node. */
    public static CheckResult numa(String end, String device, NumaPlacement n) {
        Evidence ev = new Evidence().with(key(end, "nic.numaNode"), n.nicNode()).with(key(end, "cpu"), n.cpu())
                .with(key(end, "cpu.numaNode"), n.cpuNode());
        if (n.nicNode() < 0 || n.cpuNode() < 0) {
            return CheckResult.skip("F7", "numa", end + " end: " + (n.nicNode() < 0
                    ? "the NIC " + device + " reports no NUMA node (single node or virtual device)"
                    : "the node of CPU " + n.cpu() + " is not known"), ev);
        }
        if (!n.crossNode()) {
            return CheckResult.pass("F7", "numa", end + " end: NIC " + device + " and CPU " + n.cpu()
                    + " are both on NUMA node " + n.nicNode(), ev);
        }
        return CheckResult.found("numa", new Verdict("F7", "numa-mismatch", Severity.WARNING,
                end + " end: NIC " + device + " is on NUMA node " + n.nicNode() + " but the test thread ran on CPU "
                        + n.cpu() + " (node " + n.cpuNode() + "): every completion and buffer crosses the interconnect",
                ev, "run on the NIC's node: numactl --cpunodebind=" + n.nicNode() + " --membind=" + n.nicNode()
                        + " (or taskset -c <cpus of /sys/devices/system/node/node" + n.nicNode() + "/cpulist>)"));
    }
}
