package io.jperf.path;

/** A route's type, as {@code enum rtm_type} ({@code RTN_*}); {@link #label()} is what {@code ip route} prints. */
public enum RouteType {
    UNSPEC, UNICAST, LOCAL, BROADCAST, ANYCAST, MULTICAST, BLACKHOLE, UNREACHABLE, PROHIBIT, THROW, NAT, XRESOLVE,
    /** A value this enum does not know. */
    OTHER;

    /** @return e.g. {@code "unicast"}, {@code "local"} */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static RouteType fromNative(int value) {
        RouteType[] all = values();
        return value >= 0 && value < OTHER.ordinal() ? all[value] : OTHER;
    }
}
