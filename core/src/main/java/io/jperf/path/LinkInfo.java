package io.jperf.path;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * What rtnetlink {@code RTM_GETLINK} says about one interface. Immutable.
 *
 * @param ifindex   the interface index
 * @param name      the interface name ({@code IFLA_IFNAME})
 * @param mtu       {@code IFLA_MTU}, 0 if absent
 * @param operstate RFC 2863 state as sysfs spells it: {@code up}, {@code down}, {@code unknown}...
 * @param vlanId    the 802.1Q id when the interface is a VLAN device ({@code IFLA_LINKINFO} kind
 *                  {@code vlan}), empty otherwise
 */
public record LinkInfo(int ifindex, String name, int mtu, String operstate, OptionalInt vlanId) {
    public LinkInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(operstate, "operstate");
        Objects.requireNonNull(vlanId, "vlanId");
    }

    static String operstateName(int value) {
        return switch (value) {
            case 0 -> "unknown";
            case 1 -> "notpresent";
            case 2 -> "down";
            case 3 -> "lowerlayerdown";
            case 4 -> "testing";
            case 5 -> "dormant";
            case 6 -> "up";
            default -> "operstate " + value;
        };
    }
}
