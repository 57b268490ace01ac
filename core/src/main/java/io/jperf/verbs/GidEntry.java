package io.jperf.verbs;

import java.net.InetAddress;
import java.util.Optional;

/**
 * One valid entry of a port's GID table: which Linux netdev and IP address it stands for,
 * and its type. Choose a GID by address, never by a fixed index: indexes move when addresses
 * are added or removed.
 *
 * @param index       the GID index ({@code -x} in perftest)
 * @param gid         the GID value
 * @param type        IB, RoCE v1 or RoCE v2
 * @param netdev      the Linux netdev the entry belongs to, empty on InfiniBand
 * @param ifindex     the netdev's interface index, 0 on InfiniBand
 */
public record GidEntry(int index, Gid gid, GidType type, Optional<String> netdev, int ifindex) {

    /** The IP address the GID encodes (RoCE), or empty for IB GIDs. */
    public Optional<InetAddress> ipAddress() {
        return type == GidType.IB ? Optional.empty() : Optional.of(gid.toInetAddress());
    }

    /**
     * perftest's automatic GID choice score: IPv4 family +100, not link-local +10, RoCE v2
     * over v1. Higher is better.
     */
    public int perftestScore() {
        int score = 0;
        if (gid.isIpv4Mapped()) {
            score += 100;
        }
        if (!gid.isLinkLocal()) {
            score += 10;
        }
        if (type == GidType.ROCE_V2) {
            score += 1;
        }
        return score;
    }
}
