package io.jperf.path;

import io.jperf.JperfException;
import io.jperf.ffi.Libc;
import io.jperf.ffi.LibcException;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.PortInfo;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;

/**
 * Builds the {@link PathRecord} of one end: the RDMA facts the caller already has
 * ({@link DeviceInfo}, {@link PortInfo}, the chosen {@link GidEntry}) plus what Linux says about
 * the path: the kernel's route and policy rule over rtnetlink, the netdev from sysfs, NUMA
 * placement from sysfs and {@code sched_getcpu}.
 *
 * <p>A probe never fails because of the path: what cannot be determined becomes a sentence in
 * {@link PathRecord#gaps()} (e.g. {@code route: RTM_GETROUTE to 10.9.9.9 from 10.0.0.1 failed:
 * ENETUNREACH (101): Network is unreachable}).
 *
 * <p>Lifecycle: create ({@link #live()} for the running system), {@link #probe} any number of
 * times, {@link #close()} (closes the network view if the probe opened it). Threading: call
 * {@link #probe} on the thread that will run the test loop, after pinning it; the record's CPU
 * and NUMA node are those of the calling thread. Calls are serialised by the network view.
 */
public final class PathProbe implements AutoCloseable {

    private final Sysfs sysfs;
    private final NetworkView network;
    private final IntSupplier currentCpu;
    private final AutoCloseable owned;

    /**
     * @param root       the file-system root for {@code /sys} and {@code /proc} (a fixture tree in tests)
     * @param network    where routes, rules, links and addresses come from
     * @param currentCpu the calling thread's CPU, -1 if unknown
     */
    public PathProbe(Path root, NetworkView network, IntSupplier currentCpu) {
        this(root, network, currentCpu, null);
    }

    private PathProbe(Path root, NetworkView network, IntSupplier currentCpu, AutoCloseable owned) {
        this.sysfs = new Sysfs(Objects.requireNonNull(root, "root"));
        this.network = Objects.requireNonNull(network, "network");
        this.currentCpu = Objects.requireNonNull(currentCpu, "currentCpu");
        this.owned = owned;
    }

    /** A probe of the running system: root {@code /}, a new {@link Rtnetlink}, libc {@code sched_getcpu}. */
    public static PathProbe live() throws IOException {
        Rtnetlink rtnl = Rtnetlink.open();
        return new PathProbe(Path.of("/"), rtnl, PathProbe::schedGetcpu, rtnl);
    }

    /** {@code sched_getcpu()} of the calling thread, -1 if the kernel cannot say. */
    public static int schedGetcpu() {
        try {
            return Libc.currentCpu();
        } catch (LibcException e) {
            return -1;
        }
    }

    /**
     * Records the path of one end.
     *
     * @param device       the device the test uses
     * @param port         its port
     * @param gid          the chosen GID entry of that port
     * @param destination  the peer's IP address
     * @param trafficClass the traffic class / TOS the test sends with
     */
    public PathRecord probe(DeviceInfo device, PortInfo port, GidEntry gid, InetAddress destination,
                            TrafficClass trafficClass) {
        Objects.requireNonNull(destination, "destination");
        List<String> gaps = new ArrayList<>();

        OptionalInt vlan = gid.netdev().map(sysfs::vlanId).orElse(OptionalInt.empty());
        Optional<LinkInfo> link = Optional.empty();
        if (gid.ifindex() > 0) {
            try {
                link = network.link(gid.ifindex());
            } catch (IOException | JperfException e) {
                gaps.add("netdev: " + e.getMessage());
            }
        }
        if (vlan.isEmpty() && link.isPresent()) {
            vlan = link.get().vlanId();
        }
        RdmaEnd rdma = RdmaEnd.of(device, port, gid, vlan);

        Optional<InetAddress> source = gid.ipAddress()
                .filter(a -> !gid.gid().isLinkLocal() && !gid.gid().isZero())
                .filter(a -> NlCodec.family(a) == NlCodec.family(destination));
        if (source.isEmpty() && port.linkLayer() == LinkLayer.ETHERNET) {
            gaps.add("source: GID " + gid.index() + " (" + gid.gid() + ") has no routable address of the destination's"
                    + " family; the route is looked up without a source");
        }

        Optional<Route> route = Optional.empty();
        try {
            route = Optional.of(network.route(destination, source.orElse(null)));
        } catch (IOException | JperfException e) {
            gaps.add("route: " + e.getMessage());
        }

        Optional<RuleMatch> rule = Optional.empty();
        if (route.isPresent()) {
            try {
                RuleMatcher.Outcome outcome = RuleMatcher.match(network, route.get());
                rule = outcome.match();
                if (rule.isEmpty()) {
                    gaps.add("rule: " + outcome.note());
                }
            } catch (IOException | JperfException e) {
                gaps.add("rule: " + e.getMessage());
            }
        }

        Optional<InetAddress> unbound = Optional.empty();
        if (source.isEmpty()) {
            unbound = route.flatMap(Route::preferredSource);
        } else {
            try {
                unbound = network.route(destination, null).preferredSource();
            } catch (IOException | JperfException e) {
                gaps.add("unbound source: " + e.getMessage());
            }
        }

        Optional<NetdevState> netdev = Optional.empty();
        if (gid.netdev().isPresent()) {
            String name = gid.netdev().get();
            OptionalInt mtu = sysfs.netdevMtu(name);
            Optional<String> oper = sysfs.operstate(name);
            if (mtu.isEmpty() && link.isPresent()) {
                mtu = OptionalInt.of(link.get().mtu());
            }
            if (oper.isEmpty() && link.isPresent()) {
                oper = Optional.of(link.get().operstate());
            }
            List<InetAddress> addresses = List.of();
            try {
                addresses = gid.ifindex() > 0 ? network.addresses(gid.ifindex()) : List.of();
            } catch (IOException | JperfException e) {
                gaps.add("addresses: " + e.getMessage());
            }
            if (mtu.isEmpty() || oper.isEmpty()) {
                gaps.add("netdev: " + name + " not found under " + sysfs.root().resolve("sys/class/net")
                        + " nor by ifindex " + gid.ifindex());
            }
            netdev = Optional.of(new NetdevState(name, mtu.orElse(0), oper.orElse("unknown"), addresses));
        }

        int cpu = currentCpu.getAsInt();
        NumaPlacement numa = new NumaPlacement(sysfs.nicNumaNode(device.name(), gid.netdev()), cpu, sysfs.cpuNode(cpu));
        return new PathRecord(rdma, source, destination, route, rule, unbound, netdev, trafficClass, numa, gaps);
    }

    /** Closes the network view if {@link #live()} opened it; idempotent. */
    @Override
    public void close() {
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + owned, e);
            }
        }
    }
}
