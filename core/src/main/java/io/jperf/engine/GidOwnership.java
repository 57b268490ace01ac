package io.jperf.engine;

import io.jperf.verbs.Gid;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Whether a GID a client sent belongs to the client: {@code jperf serve} sends RDMA traffic only
 * to the peer that connected, so the GID's IP address must be the control connection's peer
 * address, or, when the peer is this host itself (loopback or one of its addresses), any of this
 * host's addresses: the traffic then stays on this host. A GID
 * without an IP address (link-local, or a key message without a GID) cannot be tied to the
 * connection and is refused too. Stateless.
 */
final class GidOwnership {
    private GidOwnership() {
    }

    /** Why {@code gid} is not {@code peer}'s, or empty when it is. */
    static Optional<String> problem(byte[] gid, InetAddress peer) {
        String remedy = "; jperf serve sends RDMA traffic only to the client's own address: run the client with the"
                + " GID of the address it connects from (-x, `jperf devices -v`), connect from that address"
                + " (--bind_source_ip), or start the server with --allow-gid-mismatch on a fabric you trust";
        if (gid == null) {
            return Optional.of("the client's key message has no GID, so it cannot be tied to the client's address"
                    + " " + peer.getHostAddress() + remedy);
        }
        Gid g = Gid.of(gid);
        Optional<InetAddress> address = ipOf(gid);
        if (address.isEmpty()) {
            return Optional.of("the client's GID " + g + " carries no IP address, so it cannot be tied to the"
                    + " client's address " + peer.getHostAddress() + remedy);
        }
        InetAddress a = address.get();
        InetAddress p = unmapped(peer);
        if (a.equals(p) || ((p.isLoopbackAddress() || isLocal(p)) && isLocal(a))) {
            return Optional.empty();
        }
        return Optional.of("the client's GID " + g + " is address " + a.getHostAddress() + ", but the client connected"
                + " from " + p.getHostAddress() + remedy);
    }

    /** The IP address a RoCE v2 GID stands for: IPv4-mapped, or a global IPv6 address. */
    static Optional<InetAddress> ipOf(byte[] gid) {
        if (gid.length != 16 || Gid.of(gid).isZero() || Gid.of(gid).isLinkLocal()) {
            return Optional.empty();
        }
        boolean mapped = Arrays.equals(Arrays.copyOf(gid, 10), new byte[10]) && gid[10] == (byte) 0xff
                && gid[11] == (byte) 0xff;
        try {
            return Optional.of(mapped ? InetAddress.getByAddress(Arrays.copyOfRange(gid, 12, 16))
                    : InetAddress.getByAddress(gid));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static InetAddress unmapped(InetAddress a) {
        if (a instanceof Inet6Address six) {
            byte[] b = six.getAddress();
            if (Arrays.equals(Arrays.copyOf(b, 10), new byte[10]) && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
                try {
                    return Inet4Address.getByAddress(Arrays.copyOfRange(b, 12, 16));
                } catch (UnknownHostException e) {
                    return a;
                }
            }
        }
        return a;
    }

    private static boolean isLocal(InetAddress a) {
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
