package io.jperf.verbs;

import java.util.Comparator;
import java.util.Optional;

/**
 * How a GID index is chosen when the user gives none: perftest's score (IPv4-mapped first,
 * then not link-local, then RoCE v2 over v1), lowest index on ties. On InfiniBand no GID is
 * needed and none is chosen.
 */
public final class GidSelection {
    private GidSelection() {
    }

    /** The GID perftest would choose on this port, or empty when the port needs none or has none. */
    public static Optional<GidEntry> perftestDefault(PortInfo port) {
        if (port.linkLayer() != LinkLayer.ETHERNET) {
            return Optional.empty();
        }
        return port.gids().stream()
                .max(Comparator.comparingInt(GidEntry::perftestScore)
                        .thenComparing(Comparator.comparingInt(GidEntry::index).reversed()));
    }
}
