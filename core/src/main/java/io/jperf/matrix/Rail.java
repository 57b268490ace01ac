package io.jperf.matrix;

import java.util.Objects;
import java.util.Optional;

/**
 * One rail of a host: its RDMA device and the IP address of the GID a test uses on it (perftest's
 * default: IPv4-mapped RoCE v2 first), which peers connect to. Immutable.
 *
 * @param device  the device name, e.g. {@code mlx5_0}
 * @param address the rail's IP address; empty when the device has none (InfiniBand, or no IP on
 *                the netdev): peers then reach the host by its name
 */
public record Rail(String device, Optional<String> address) {
    public Rail {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(address, "address");
    }
}
