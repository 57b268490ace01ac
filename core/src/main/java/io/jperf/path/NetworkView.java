package io.jperf.path;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The kernel networking facts a {@link PathProbe} asks for. {@link Rtnetlink} answers them from
 * the running kernel; tests supply their own. Implementations document their threading.
 */
public interface NetworkView {

    /**
     * The kernel's route for a packet to {@code destination}, as {@code ip route get DST [from SRC]}.
     *
     * @param sourceOrNull the source address to look up from (same family), or {@code null}
     * @throws RtnetlinkException e.g. ENETUNREACH when no table has a route
     * @throws IOException        when the kernel cannot be asked
     */
    Route route(InetAddress destination, InetAddress sourceOrNull) throws IOException;

    /** The policy rules of one family (2 = IPv4, 10 = IPv6), in the kernel's order (by priority). */
    List<PolicyRule> rules(int family) throws IOException;

    /** The interface with this index, empty if there is none. */
    Optional<LinkInfo> link(int ifindex) throws IOException;

    /** The addresses (IPv4 and IPv6) configured on the interface with this index. */
    List<InetAddress> addresses(int ifindex) throws IOException;

    /**
     * The addresses of the interface with their prefix lengths ({@code 10.20.1.1/24}: the address
     * itself, not the network). By default each address as a host prefix (/32, /128), for views
     * that do not know the lengths.
     */
    default List<Prefix> prefixes(int ifindex) throws IOException {
        return addresses(ifindex).stream().map(a -> new Prefix(a, a.getAddress().length * 8)).toList();
    }
}
