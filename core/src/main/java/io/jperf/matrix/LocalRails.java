package io.jperf.matrix;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RdmaUnavailableException;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** This host's rails: the devices given, each with the address of its default GID. */
@FunctionalInterface
public interface LocalRails {

    /**
     * @param devices the devices in rail order; empty: one rail on the first device
     * @throws RdmaUnavailableException when a device does not exist or has no such port
     */
    List<Rail> resolve(List<String> devices);

    /** From this host's devices (rdma-core), on port {@code ibPort}. */
    static LocalRails live(int ibPort) {
        return devices -> {
            List<DeviceInfo> here = Rdma.devices();
            if (here.isEmpty()) {
                throw new RdmaUnavailableException("jperf matrix: no RDMA device on this host (`jperf doctor` says why)");
            }
            List<String> names = devices.isEmpty() ? List.of(here.getFirst().name()) : devices;
            List<Rail> rails = new ArrayList<>();
            for (String name : names) {
                DeviceInfo d = here.stream().filter(x -> x.name().equals(name)).findFirst()
                        .orElseThrow(() -> new RdmaUnavailableException("--rails: no RDMA device " + name + " here (devices: "
                                + here.stream().map(DeviceInfo::name).toList() + ")"));
                Optional<String> address = d.port(ibPort).flatMap(GidSelection::perftestDefault)
                        .flatMap(GidEntry::ipAddress).map(InetAddress::getHostAddress);
                rails.add(new Rail(name, address));
            }
            return List.copyOf(rails);
        };
    }
}
