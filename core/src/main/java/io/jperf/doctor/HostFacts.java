package io.jperf.doctor;

import io.jperf.path.GidChoice;
import io.jperf.path.NetdevState;
import io.jperf.path.NetworkView;
import io.jperf.path.PathProbe;
import io.jperf.path.PathRecord;
import io.jperf.path.Prefix;
import io.jperf.path.RdmaEnd;
import io.jperf.path.RtnetlinkException;
import io.jperf.path.Sysfs;
import io.jperf.path.TrafficClass;
import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.PortInfo;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What the walk reads once and every layer looks at: the RDMA devices (or why there are none),
 * the kernel's network view (or why it cannot be asked), the netdevs worth checking and each
 * port's facts with the path record a test of that port would start from. Closes the network
 * view it opened.
 */
final class HostFacts implements AutoCloseable {

    /** One netdev: its sysfs state and addresses. */
    record Netdev(String name, int ifindex, NetdevState state, OptionalInt carrier, OptionalInt speedMbps,
                  List<Prefix> prefixes, boolean roce) {
        List<Prefix> ipv4() {
            return prefixes.stream().filter(Prefix::isIpv4).toList();
        }
    }

    /**
     * One port of a device.
     *
     * @param netdev        the port's netdev (RoCE), if known
     * @param gid           the GID a test of this port would use, or why there is none
     * @param end           the RDMA end of that GID
     * @param record        the path record of that end towards a neighbour on its subnet
     * @param recordProblem why there is no record (no IPv4 subnet, no network view...)
     */
    record Port(DeviceInfo device, PortInfo port, Optional<Netdev> netdev, GidChoice gid, Optional<RdmaEnd> end,
                Optional<PathRecord> record, Optional<String> recordProblem) {
        String subject() {
            return device.name() + "/" + port.number();
        }

        boolean roce() {
            return port.linkLayer() == LinkLayer.ETHERNET;
        }
    }

    final Doctor doctor;
    final Sysfs sys;
    /** Every device verbs listed (before {@code -d}); empty with a {@link #devicesProblem}. */
    final List<DeviceInfo> allDevices;
    final Optional<String> devicesProblem;
    /** The devices to walk ({@code -d} applied). */
    final List<DeviceInfo> devices;
    final Optional<NetworkView> network;
    final Optional<String> networkProblem;
    final List<Netdev> netdevs;
    final List<Port> ports;
    final int cpu;

    private HostFacts(Doctor doctor, List<DeviceInfo> allDevices, Optional<String> devicesProblem,
                      Optional<NetworkView> network, Optional<String> networkProblem) {
        this.doctor = doctor;
        this.sys = doctor.sysfs;
        this.allDevices = allDevices;
        this.devicesProblem = devicesProblem;
        this.devices = doctor.device.isEmpty() ? allDevices
                : allDevices.stream().filter(d -> d.name().equals(doctor.device.get())).toList();
        this.network = network;
        this.networkProblem = networkProblem;
        this.cpu = doctor.cpu.getAsInt();
        this.netdevs = readNetdevs();
        this.ports = readPorts();
    }

    static HostFacts gather(Doctor doctor) {
        List<DeviceInfo> devices = List.of();
        Optional<String> devicesProblem = Optional.empty();
        try {
            devices = doctor.devices.devices();
        } catch (RuntimeException | LinkageError e) {
            devicesProblem = Optional.of(e.getMessage() != null ? e.getMessage() : e.toString());
        }
        Optional<NetworkView> network = Optional.empty();
        Optional<String> networkProblem = Optional.empty();
        try {
            network = Optional.of(doctor.network.open());
        } catch (IOException | RuntimeException | LinkageError e) {
            networkProblem = Optional.of("rtnetlink: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
        }
        return new HostFacts(doctor, devices, devicesProblem, network, networkProblem);
    }

    /** The ports of the walked devices ({@code -i} applied). */
    private List<Port> readPorts() {
        List<Port> out = new ArrayList<>();
        for (DeviceInfo d : devices) {
            for (PortInfo p : d.ports()) {
                if (doctor.ibPort < 0 || p.number() == doctor.ibPort) {
                    out.add(port(d, p));
                }
            }
        }
        return List.copyOf(out);
    }

    private Port port(DeviceInfo d, PortInfo p) {
        Optional<Netdev> netdev = portNetdev(d, p).flatMap(this::netdev);
        GidChoice choice = GidChoice.of(d, p, -1);
        if (choice.gid().isEmpty()) {
            return new Port(d, p, netdev, choice, Optional.empty(), Optional.empty(),
                    Optional.of(choice.problem().orElse("InfiniBand without a GID: no IP path")));
        }
        GidEntry gid = choice.gid().get();
        OptionalInt vlan = gid.netdev().map(sys::vlanId).orElse(OptionalInt.empty());
        RdmaEnd end = RdmaEnd.of(d, p, gid, vlan);
        if (network.isEmpty()) {
            return new Port(d, p, netdev, choice, Optional.of(end), Optional.empty(), networkProblem);
        }
        Optional<InetAddress> neighbour = gid.gid().isIpv4Mapped() && netdev.isPresent()
                ? netdev.get().ipv4().stream().filter(x -> x.address().equals(gid.gid().toInetAddress()))
                        .findFirst().flatMap(HostFacts::neighbour)
                : Optional.empty();
        if (neighbour.isEmpty()) {
            return new Port(d, p, netdev, choice, Optional.of(end), Optional.empty(), Optional.of(gid.gid().isIpv4Mapped()
                    ? "the GID's address " + gid.gid().toInetAddress().getHostAddress() + " has no subnet with a neighbour"
                    + " address to route to (a /32?)" : "the GID " + gid.gid() + " carries no IPv4 address"));
        }
        PathProbe probe = new PathProbe(sys.root(), network.get(), () -> cpu);
        PathRecord record = probe.probe(d, p, gid, neighbour.get(), new TrafficClass(doctor.trafficClass));
        return new Port(d, p, netdev, choice, Optional.of(end), Optional.of(record), Optional.empty());
    }

    /** The netdev of a port: a GID's, else sysfs' GID attributes, the rxe parent, or the PCI device's. */
    private Optional<String> portNetdev(DeviceInfo d, PortInfo p) {
        Optional<String> fromGid = p.gids().stream().map(GidEntry::netdev).flatMap(Optional::stream).findFirst();
        if (fromGid.isPresent()) {
            return fromGid;
        }
        String base = "sys/class/infiniband/" + d.name();
        for (String i : sys.list(base + "/ports/" + p.number() + "/gid_attrs/ndevs")) {
            Optional<String> n = sys.read(base + "/ports/" + p.number() + "/gid_attrs/ndevs/" + i);
            if (n.isPresent() && !n.get().isEmpty()) {
                return n;
            }
        }
        Optional<String> parent = sys.read(base + "/parent");
        if (parent.isPresent()) {
            return parent;
        }
        List<String> pci = sys.list(base + "/device/net");
        return pci.size() == 1 ? Optional.of(pci.getFirst()) : Optional.empty();
    }

    /** The netdevs to walk: the walked devices' netdevs; without RDMA devices, the host's NICs. */
    private List<Netdev> readNetdevs() {
        Set<String> roce = new LinkedHashSet<>();
        for (DeviceInfo d : devices) {
            for (PortInfo p : d.ports()) {
                if (p.linkLayer() == LinkLayer.ETHERNET && (doctor.ibPort < 0 || p.number() == doctor.ibPort)) {
                    portNetdev(d, p).ifPresent(roce::add);
                }
            }
        }
        Set<String> names = new LinkedHashSet<>(roce);
        if (devices.isEmpty() && doctor.device.isEmpty()) {
            for (String n : sys.netdevs()) {
                if (!n.equals("lo") && sys.netdevHasDevice(n)) {
                    names.add(n);
                }
            }
        }
        List<Netdev> out = new ArrayList<>();
        for (String n : names) {
            out.add(readNetdev(n, roce.contains(n)));
        }
        return List.copyOf(out);
    }

    private Netdev readNetdev(String name, boolean roce) {
        int ifindex = sys.ifindex(name).orElse(0);
        List<Prefix> prefixes = List.of();
        if (network.isPresent() && ifindex > 0) {
            try {
                prefixes = network.get().prefixes(ifindex);
            } catch (IOException | RtnetlinkException e) {
                prefixes = List.of();
            }
        }
        NetdevState state = new NetdevState(name, sys.netdevMtu(name).orElse(0), sys.operstate(name).orElse("unknown"),
                prefixes.stream().map(Prefix::address).toList());
        return new Netdev(name, ifindex, state, sys.carrier(name), sys.speedMbps(name), prefixes, roce);
    }

    Optional<Netdev> netdev(String name) {
        return netdevs.stream().filter(n -> n.name().equals(name)).findFirst()
                .or(() -> sys.netdevMtu(name).isPresent() || sys.operstate(name).isPresent()
                        ? Optional.of(readNetdev(name, true)) : Optional.empty());
    }

    /**
     * An address on {@code p}'s subnet other than its own, to ask the kernel how this rail reaches
     * its neighbours: the subnet's first host address, or its second when the first is this host's.
     * Empty for a /32 and for IPv6.
     */
    static Optional<InetAddress> neighbour(Prefix p) {
        if (!(p.address() instanceof Inet4Address) || p.length() > 31) {
            return Optional.empty();
        }
        byte[] own = p.address().getAddress();
        int a = ((own[0] & 0xff) << 24) | ((own[1] & 0xff) << 16) | ((own[2] & 0xff) << 8) | (own[3] & 0xff);
        int mask = p.length() == 0 ? 0 : -1 << (32 - p.length());
        int net = a & mask;
        int candidate = p.length() == 31 ? (a ^ 1) : (net + 1 == a ? net + 2 : net + 1);
        byte[] b = {(byte) (candidate >>> 24), (byte) (candidate >>> 16), (byte) (candidate >>> 8), (byte) candidate};
        try {
            return Optional.of(InetAddress.getByAddress(b));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        if (network.isPresent() && network.get() instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // nothing was written through it; a failing close changes no check
            }
        }
    }
}
