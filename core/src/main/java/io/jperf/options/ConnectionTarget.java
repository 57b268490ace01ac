package io.jperf.options;

/**
 * Where a test runs: the peer to connect to (or that this side serves), and which local device, port and GID
 * carry it. Nothing here is exchanged with the peer; the two ends of one test usually differ in every value.
 * The canonical constructor checks every invariant of these values alone, so an instance is always valid.
 * Immutable and thread-safe.
 *
 * @param serverHost the positional host argument; null means this side is the server
 * @param port {@code -p}: TCP control port (and rdma_cm port)
 * @param device {@code -d}: RDMA device name; null means the first device found
 * @param ibPort {@code -i}: port number on the device
 * @param gidIndex {@code -x}: GID index; -1 means no GRH on IB and automatic choice on Ethernet
 * @param bindSourceIp {@code --bind_source_ip}: local address for the control socket; null = any
 * @param loopback run both ends in this process (then there is no server host)
 */
public record ConnectionTarget(String serverHost, int port, String device, int ibPort, int gidIndex,
                               String bindSourceIp, boolean loopback) {

    /** perftest's default control port. */
    public static final int DEFAULT_PORT = 18515;

    static final int MAX_GID_INDEX = 255;

    /** perftest's defaults: a server on port {@value #DEFAULT_PORT}, first device, port 1, automatic GID. */
    public static final ConnectionTarget DEFAULT = new ConnectionTarget(null, DEFAULT_PORT, null, 1, -1, null, false);

    /** Checks every invariant; failures name the perftest flag and what is allowed. */
    public ConnectionTarget {
        OptionsValidator.validateTarget(serverHost, port, device, ibPort, gidIndex, bindSourceIp, loopback);
    }

    /** Whether this side is the server (no host was given). */
    public boolean isServer() {
        return serverHost == null;
    }
}
