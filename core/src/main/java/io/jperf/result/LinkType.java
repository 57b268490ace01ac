package io.jperf.result;

/** The port's link layer as perftest names it in its header. */
public enum LinkType {
    /** InfiniBand (also reported for an unspecified link layer). */
    IB("IB"),
    /** RoCE. */
    ETHERNET("Ethernet");

    private final String label;

    LinkType(String label) {
        this.label = label;
    }

    /** perftest's text: {@code IB} or {@code Ethernet}. */
    public String label() {
        return label;
    }
}
