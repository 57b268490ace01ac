package io.jperf.cm;

import io.jperf.path.Addr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * {@code struct sockaddr_in} / {@code sockaddr_in6} in native memory, as the RDMA CM calls take
 * and return them.
 *
 * <p>Byte order: {@code sa_family} and {@code sin6_scope_id} are host order; the port,
 * the address bytes and {@code sin6_flowinfo} are network order (big-endian). Layout (Linux, all
 * architectures): {@code sockaddr_in} = family u16 @0, port be16 @2, address 4 bytes @4, zero
 * @8..16; {@code sockaddr_in6} = family u16 @0, port be16 @2, flowinfo be32 @4, address 16
 * bytes @8, scope id u32 @24, 28 bytes. Stateless and thread-safe.
 */
final class SockAddrs {

    static final short AF_INET = 2;
    static final short AF_INET6 = 10;
    static final long SOCKADDR_IN_SIZE = 16;
    static final long SOCKADDR_IN6_SIZE = 28;
    /** {@code sizeof(struct sockaddr_storage)}. */
    static final long STORAGE_SIZE = 128;

    private static final ValueLayout.OfShort BE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfShort HOST16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt HOST32 = ValueLayout.JAVA_INT_UNALIGNED;

    private SockAddrs() {
    }

    /**
     * Writes {@code address} as a zeroed {@code sockaddr_in} (IPv4) or {@code sockaddr_in6}
     * (IPv6, with its scope id) allocated from {@code allocator}.
     *
     * @throws IllegalArgumentException for an unresolved address
     */
    static MemorySegment encode(InetSocketAddress address, SegmentAllocator allocator) {
        InetAddress ip = address.getAddress();
        if (ip == null) {
            throw new IllegalArgumentException("unresolved address " + address + ": give an IP address");
        }
        if (ip instanceof Inet4Address) {
            MemorySegment s = allocator.allocate(SOCKADDR_IN_SIZE, 4);
            s.fill((byte) 0);
            s.set(HOST16, 0, AF_INET);
            s.set(BE16, 2, (short) address.getPort());
            MemorySegment.copy(ip.getAddress(), 0, s, ValueLayout.JAVA_BYTE, 4, 4);
            return s;
        }
        Inet6Address ip6 = (Inet6Address) ip;
        MemorySegment s = allocator.allocate(SOCKADDR_IN6_SIZE, 4);
        s.fill((byte) 0);
        s.set(HOST16, 0, AF_INET6);
        s.set(BE16, 2, (short) address.getPort());
        s.set(BE32, 4, 0);
        MemorySegment.copy(ip6.getAddress(), 0, s, ValueLayout.JAVA_BYTE, 8, 16);
        s.set(HOST32, 24, ip6.getScopeId());
        return s;
    }

    /**
     * Reads a {@code sockaddr_in}/{@code sockaddr_in6} (e.g. inside {@code rdma_addr}).
     *
     * @param sockaddr at least 28 bytes readable (a {@code sockaddr_storage} slice is fine)
     * @return the address and port, empty when the family is 0 (not set) or not an IP family
     */
    static Optional<InetSocketAddress> decode(MemorySegment sockaddr) {
        short family = sockaddr.get(HOST16, 0);
        int port = Short.toUnsignedInt(sockaddr.get(BE16, 2));
        try {
            if (family == AF_INET) {
                byte[] a = new byte[4];
                MemorySegment.copy(sockaddr, ValueLayout.JAVA_BYTE, 4, a, 0, 4);
                return Optional.of(new InetSocketAddress(InetAddress.getByAddress(a), port));
            }
            if (family == AF_INET6) {
                byte[] a = new byte[16];
                MemorySegment.copy(sockaddr, ValueLayout.JAVA_BYTE, 8, a, 0, 16);
                int scope = sockaddr.get(HOST32, 24);
                InetAddress ip = scope != 0 ? Inet6Address.getByAddress(null, a, scope) : InetAddress.getByAddress(a);
                return Optional.of(new InetSocketAddress(ip, port));
            }
        } catch (UnknownHostException e) {
            throw new AssertionError("fixed-length address refused", e);
        }
        return Optional.empty();
    }

    /** {@code 10.0.0.1:18515}, {@code [fd00::1]:18515}; the port is left out when 0. */
    static String text(InetSocketAddress a) {
        if (a == null) {
            return "*";
        }
        String ip = a.getAddress() == null ? a.getHostString() : Addr.text(a.getAddress());
        boolean v6 = a.getAddress() instanceof Inet6Address;
        if (a.getPort() == 0) {
            return ip;
        }
        return (v6 ? "[" + ip + "]" : ip) + ":" + a.getPort();
    }
}
