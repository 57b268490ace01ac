package io.jperf.doctor;

/**
 * The layers of the troubleshooting walk, in the order an engineer walks them (docs/domain.md):
 * the link, then IP and routing, then the RDMA device, then QoS and counters, then placement,
 * then the host's RDMA plumbing, and last the pair with a peer.
 */
public enum Layer {
    LINK("link", "link: state, carrier, speed, MTU"),
    IP("ip", "IP: addresses, routes, policy rules"),
    RDMA("rdma", "RDMA: devices, ports, GID table"),
    QOS("qos", "QoS and counters"),
    NUMA("numa", "NUMA and CPU placement"),
    SYSTEM("system", "system: memlock, kernel modules, verbs providers"),
    PEER("peer", "the pair, against jperf serve");

    private final String key;
    private final String title;

    Layer(String key, String title) {
        this.key = key;
        this.title = title;
    }

    /** The layer's name in JSON, e.g. {@code ip}. */
    public String key() {
        return key;
    }

    /** The heading in the text report. */
    public String title() {
        return title;
    }
}
