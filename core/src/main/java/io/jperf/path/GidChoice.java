package io.jperf.path;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.GidEntry;
import io.jperf.verbs.GidSelection;
import io.jperf.verbs.LinkLayer;
import io.jperf.verbs.PortInfo;

import java.util.Objects;
import java.util.Optional;

/**
 * The GID an end of a test uses on a port, chosen as the engine chooses it ({@code -x}, else
 * perftest's default), or why there is none. Shared by the sweep's pre-flight check and
 * {@code jperf doctor}, so both say the same thing about the same port. Immutable.
 *
 * @param gid     the chosen entry; empty on InfiniBand without a GID index (no IP path), or with a problem
 * @param problem why a RoCE port has no usable GID, one sentence naming the device and port
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
        if (gidIndex >= 0) {
            Optional<GidEntry> gid = port.gid(gidIndex);
            return gid.isPresent() ? new GidChoice(gid, Optional.empty())
                    : new GidChoice(Optional.empty(), Optional.of("GID index " + gidIndex + " does not exist on "
                            + device.name() + " port " + port.number() + " (see `jperf devices -d " + device.name() + "`)"));
        }
        Optional<GidEntry> gid = GidSelection.perftestDefault(port);
        if (gid.isEmpty() && port.linkLayer() == LinkLayer.ETHERNET) {
            return new GidChoice(Optional.empty(), Optional.of(device.name() + " port " + port.number()
                    + " has no GID: the RoCE netdev needs an IP address and must be up (`ip addr`)"));
        }
        return new GidChoice(gid, Optional.empty());
    }
}
