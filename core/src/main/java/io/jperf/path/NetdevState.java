package io.jperf.path;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;

/**
 * The Linux netdev behind the chosen GID. Immutable.
 *
 * @param name      the interface name
 * @param mtu       {@code /sys/class/net/<if>/mtu}, 0 if unknown
 * @param operstate {@code /sys/class/net/<if>/operstate}: {@code up}, {@code down},
 *                  {@code lowerlayerdown}, {@code unknown} (common for virtual devices)...
 * @param addresses the IP addresses configured on it (IPv4 first as the kernel lists them)
 */
public record NetdevState(String name, int mtu, String operstate, List<InetAddress> addresses) {

    public NetdevState {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(operstate, "operstate");
        addresses = List.copyOf(addresses);
    }

    /** {@code true} unless the operstate says the link cannot pass traffic. */
    public boolean usable() {
        return switch (operstate) {
            case "down", "lowerlayerdown", "notpresent", "dormant" -> false;
            default -> true;
        };
    }

    /** {@code true} if at least one IPv4 address is configured. */
    public boolean hasIpv4() {
        return addresses.stream().anyMatch(a -> a instanceof Inet4Address);
    }
}
