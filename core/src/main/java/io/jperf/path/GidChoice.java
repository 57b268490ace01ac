package io.jperf.path;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.PortInfo;
import io.jperf.verbs.RdmaUnavailableException;

import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The GID an end of a test uses on a port, chosen the one way jperf chooses it ({@code -x}, else
 * perftest's default), or why there is none. The engine's endpoints, its RDMA CM source address, the
 * sweep's pre-flight check and {@code jperf doctor} all resolve the GID here, so all of them pick the
 * same entry and say the same thing about the same port. Immutable.
 *
 * @param gid     the chosen entry; empty on InfiniBand without a GID index (no IP path), or with a problem
 * @param problem why the port has no usable GID, one sentence naming the device, the port and what to do
 */
public record GidChoice(Optional<GidEntry> gid, Optional<String> problem) {

    public GidChoice {
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(problem, "problem");
    }

    /**
     * @param gidIndex the requested index ({@code -x}), or -1 for perftest's default
     */
    public static GidChoice of(DeviceInfo device, PortInfo port, int gidIndex) {
        return of(device.name(), port, gidIndex);
    }

    /**
     * @param device   the device's name, for the problem's sentence
     * @param gidIndex the requested index ({@code -x}), or -1 for perftest's default
     */
    public static GidChoice of(String device, PortInfo port, int gidIndex) {
        if (gidIndex >= 0) {
            Optional<GidEntry> gid = port.gid(gidIndex);
            return gid.isPresent() ? new GidChoice(gid, Optional.empty())
                    : new GidChoice(Optional.empty(), Optional.of("GID index " + gidIndex + " does not exist on "
                            + device + " port " + port.number() + "; valid entries: " + describe(port)
                            + " (see `jperf devices -d " + device + "`)"));
        }
        Optional<GidEntry> gid = GidSelection.perftestDefault(port);
        if (gid.isEmpty() && port.linkLayer() == LinkLayer.ETHERNET) {
            return new GidChoice(Optional.empty(), Optional.of(device + " port " + port.number()
                    + " has no GID: the RoCE netdev needs an IP address and must be up (`ip addr`)"));
        }
        return new GidChoice(gid, Optional.empty());
    }

    /**
     * The chosen entry, empty only where the port needs none (InfiniBand without {@code -x}).
     *
     * @throws RdmaUnavailableException with the problem's sentence when the port has no usable GID
     */
    public Optional<GidEntry> require() {
        if (problem.isPresent()) {
            throw new RdmaUnavailableException(problem.get());
        }
        return gid;
    }

    private static String describe(PortInfo port) {
        if (port.gids().isEmpty()) {
            return "none";
        }
        return port.gids().stream()
                .map(g -> g.index() + "=" + g.type().label() + "/" + g.ipAddress().map(a -> a.getHostAddress()).orElse("-"))
                .collect(Collectors.joining(", "));
    }
}
