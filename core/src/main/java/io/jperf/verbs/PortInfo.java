package io.jperf.verbs;

import java.util.List;
import java.util.Optional;

/**
 * An immutable snapshot of one port: {@code ibv_query_port} plus its valid GID entries.
 *
 * @param number        the port number, from 1
 * @param state         logical state; only ACTIVE ports pass traffic
 * @param maxMtu        the largest MTU the port supports
 * @param activeMtu     the MTU in use (on RoCE it follows the netdev MTU)
 * @param linkLayer     InfiniBand or Ethernet (RoCE)
 * @param lid           the port's LID (0 on RoCE)
 * @param activeWidth   the {@code active_width} code (1=1x, 2=4x, 4=8x, 8=12x, 16=2x)
 * @param activeSpeed   the {@code active_speed} code (1=SDR 2.5 ... 64=HDR 50, 128=NDR 100 Gb/s per lane)
 * @param gidTableLength the size of the GID table (most slots are empty)
 * @param gids          the valid GID entries, by index
 */
public record PortInfo(int number, PortState state, Mtu maxMtu, Mtu activeMtu, LinkLayer linkLayer,
                       int lid, int activeWidth, int activeSpeed, int gidTableLength, List<GidEntry> gids) {

    public PortInfo {
        gids = List.copyOf(gids);
    }

    public Optional<GidEntry> gid(int index) {
        return gids.stream().filter(g -> g.index() == index).findFirst();
    }

    /** Lanes of the active width, 0 when unknown. */
    public int lanes() {
        return switch (activeWidth) {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    /** Per-lane signalling rate in Gb/s for the active speed code, 0 when unknown. */
    public double laneGbps() {
        return switch (activeSpeed) {
            case 1 -> 2.5;
            case 2 -> 5.0;
            case 4, 8 -> 10.0;
            case 16 -> 14.0;
            case 32 -> 25.0;
            case 64 -> 50.0;
            case 128 -> 100.0;
            case 256 -> 200.0;
            default -> 0.0;
        };
    }

    /** The nominal link rate, lanes x lane rate, in Gb/s; 0 when the port does not say. */
    public double rateGbps() {
        return lanes() * laneGbps();
    }
}
