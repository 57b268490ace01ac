package io.jperf.verbs;

/** A port's link layer, as {@code IBV_LINK_LAYER_*}; perftest prints {@link #perftestName()}. */
public enum LinkLayer {
    UNSPECIFIED("IB"), INFINIBAND("IB"), ETHERNET("Ethernet");

    private final String perftestName;

    LinkLayer(String perftestName) {
        this.perftestName = perftestName;
    }

    public String perftestName() {
        return perftestName;
    }

    static LinkLayer fromNative(int value) {
        return switch (value) {
            case 1 -> INFINIBAND;
            case 2 -> ETHERNET;
            default -> UNSPECIFIED;
        };
    }
}
