package io.jperf.verbs;

import java.net.InetAddress;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Where an IP address lives in this host's RDMA GID tables: the device, port and GID entry whose
 * GID carries it. Used to pick the device for an address, as RDMA CM does from a route. Immutable.
 *
 * @param device the device's info (ports and GIDs at lookup time)
 * @param port   the port whose GID table has the address
 * @param gid    the entry; RoCE v2 is preferred over v1 for the same address
 */
public record GidLocation(DeviceInfo device, PortInfo port, GidEntry gid) {

    /** Finds {@code address} among all devices' GIDs (opens each device briefly). */
    public static Optional<GidLocation> of(InetAddress address) {
        return find(Rdma.devices(), address);
    }

    /** Finds {@code address} among the given devices' GIDs. */
    public static Optional<GidLocation> find(List<DeviceInfo> devices, InetAddress address) {
        return devices.stream()
                .flatMap(d -> d.ports().stream().flatMap(p -> p.gids().stream()
                        .filter(g -> g.ipAddress().filter(address::equals).isPresent())
                        .map(g -> new GidLocation(d, p, g))))
                .max(Comparator.comparingInt((GidLocation l) -> l.gid().perftestScore())
                        .thenComparing(Comparator.comparingInt((GidLocation l) -> l.gid().index()).reversed()));
    }
}
