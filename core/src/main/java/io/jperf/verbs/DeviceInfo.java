package io.jperf.verbs;

import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of one RDMA device: identity, limits jperf cares about, and its ports.
 *
 * @param name        the verbs device name, e.g. {@code mlx5_0} or {@code rxe0}
 * @param nodeGuid    the node GUID, as printed by {@code ibv_devinfo}
 * @param firmware    the firmware version string (may be empty)
 * @param vendorId    the PCI vendor id
 * @param vendorPartId the vendor's part id
 * @param maxQp       the maximum number of QPs
 * @param maxCqe      the maximum CQ depth
 * @param maxQpWr     the maximum outstanding work requests per QP
 * @param maxMrSize   the largest memory region
 * @param ports       the device's ports
 */
public record DeviceInfo(String name, String nodeGuid, String firmware, int vendorId, int vendorPartId,
                         int maxQp, int maxCqe, int maxQpWr, long maxMrSize, List<PortInfo> ports) {

    public DeviceInfo {
        ports = List.copyOf(ports);
    }

    public Optional<PortInfo> port(int number) {
        return ports.stream().filter(p -> p.number() == number).findFirst();
    }
}
