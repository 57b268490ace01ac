package io.jperf.path;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Gid;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidType;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.Mtu;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.PortState;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The RDMA side of one end: device, port and the chosen GID entry. Immutable.
 *
 * @param device      the verbs device name, e.g. {@code mlx5_0}
 * @param port        the port number
 * @param linkLayer   InfiniBand or Ethernet (RoCE)
 * @param portState   the port's logical state
 * @param activeMtu   the port's active MTU
 * @param gidIndex    the chosen GID index ({@code -x})
 * @param gid         the GID value
 * @param gidType     IB, RoCE v1 or RoCE v2
 * @param netdev      the GID's netdev, empty on InfiniBand
 * @param ifindex     the netdev's index, 0 on InfiniBand
 * @param vlanId      the netdev's 802.1Q VLAN id, empty when it is not a VLAN device
 * @param portHasIpGid whether any GID of the port encodes a routable (non link-local) IP address
 */
public record RdmaEnd(String device, int port, LinkLayer linkLayer, PortState portState, Mtu activeMtu,
                      int gidIndex, Gid gid, GidType gidType, Optional<String> netdev, int ifindex,
                      OptionalInt vlanId, boolean portHasIpGid) {

    public RdmaEnd {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(linkLayer, "linkLayer");
        Objects.requireNonNull(portState, "portState");
        Objects.requireNonNull(activeMtu, "activeMtu");
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(gidType, "gidType");
        Objects.requireNonNull(netdev, "netdev");
        Objects.requireNonNull(vlanId, "vlanId");
    }

    /** The end of {@code device}'s {@code port} using {@code gid}, from the verbs snapshot. */
    public static RdmaEnd of(DeviceInfo device, PortInfo port, GidEntry gid, OptionalInt vlanId) {
        return new RdmaEnd(device.name(), port.number(), port.linkLayer(), port.state(), port.activeMtu(),
                gid.index(), gid.gid(), gid.type(), gid.netdev(), gid.ifindex(), vlanId, hasIpGid(port));
    }

    /** Whether any GID of the port encodes a routable (not link-local) IP address. */
    public static boolean hasIpGid(PortInfo port) {
        return port.gids().stream().anyMatch(g -> g.type() != GidType.IB && !g.gid().isZero() && !g.gid().isLinkLocal());
    }

    /** {@code true} for RoCE (Ethernet link layer). */
    public boolean isRoce() {
        return linkLayer == LinkLayer.ETHERNET;
    }
}
