package io.jperf.cm;

import io.jperf.ffi.generated.rdma_addr;
import io.jperf.ffi.generated.sockaddr_in;
import io.jperf.ffi.generated.sockaddr_in6;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** sockaddr_in / sockaddr_in6 in native memory: layout, byte order, round trips. */
class SockAddrsTest {

    @Test
    void ipv4IsFamilyHostOrderPortAndAddressNetworkOrder() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = SockAddrs.encode(new InetSocketAddress(InetAddress.getByName("10.20.0.1"), 18515), arena);
            assertEquals(16, s.byteSize());
            byte[] b = s.toArray(ValueLayout.JAVA_BYTE);
            byte[] family = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? new byte[] {2, 0} : new byte[] {0, 2};
            assertArrayEquals(new byte[] {family[0], family[1], 0x48, 0x53, 10, 20, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}, b,
                    "AF_INET, port 18515 = 0x4853 big-endian, 10.20.0.1, zero padding");
            // The same bytes through the jextract layout of the installed headers.
            assertEquals(2, sockaddr_in.sin_port$offset());
            assertEquals(4, sockaddr_in.sin_addr$offset());
            assertEquals(16, sockaddr_in.sizeof());
            assertEquals(SockAddrs.AF_INET, sockaddr_in.sin_family(s));
            short raw = sockaddr_in.sin_port(s); // read in host order, like C code without ntohs
            int port = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                    ? Short.toUnsignedInt(Short.reverseBytes(raw)) : Short.toUnsignedInt(raw);
            assertEquals(18515, port, "ntohs(sin_port)");
        }
    }

    @Test
    void ipv6CarriesFlowinfoZeroAddressAndScopeId() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Inet6Address ip = Inet6Address.getByAddress(null, InetAddress.getByName("fe80::1").getAddress(), 3);
            MemorySegment s = SockAddrs.encode(new InetSocketAddress(ip, 0x1234), arena);
            assertEquals(28, s.byteSize());
            assertEquals(28, sockaddr_in6.sizeof());
            assertEquals(8, sockaddr_in6.sin6_addr$offset());
            assertEquals(24, sockaddr_in6.sin6_scope_id$offset());
            assertEquals(SockAddrs.AF_INET6, sockaddr_in6.sin6_family(s));
            assertEquals(0x12, s.get(ValueLayout.JAVA_BYTE, 2), "port high byte first");
            assertEquals(0x34, s.get(ValueLayout.JAVA_BYTE, 3));
            assertEquals(0, sockaddr_in6.sin6_flowinfo(s));
            assertEquals(3, sockaddr_in6.sin6_scope_id(s), "scope id in host order");
            byte[] addr = new byte[16];
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 8, addr, 0, 16);
            assertArrayEquals(ip.getAddress(), addr);

            InetSocketAddress back = SockAddrs.decode(s).orElseThrow();
            assertEquals(0x1234, back.getPort());
            assertEquals(3, ((Inet6Address) back.getAddress()).getScopeId());
            assertArrayEquals(ip.getAddress(), back.getAddress().getAddress());
        }
    }

    @Test
    void roundTripsThroughTheStorageUnionsOfRdmaAddr() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment addr = rdma_addr.allocate(arena);
            addr.fill((byte) 0);
            assertEquals(Optional.empty(), SockAddrs.decode(rdma_addr.src_storage(addr)), "family 0 = not set");
            InetSocketAddress src = new InetSocketAddress(InetAddress.getByName("10.20.0.2"), 40001);
            InetSocketAddress dst = new InetSocketAddress(InetAddress.getByName("fd00::12"), 18515);
            MemorySegment.copy(SockAddrs.encode(src, arena), 0, rdma_addr.src_storage(addr), 0, 16);
            MemorySegment.copy(SockAddrs.encode(dst, arena), 0, rdma_addr.dst_storage(addr), 0, 28);
            assertEquals(Optional.of(src), SockAddrs.decode(rdma_addr.src_storage(addr)));
            assertEquals(Optional.of(dst), SockAddrs.decode(rdma_addr.dst_storage(addr)));
        }
    }

    @Test
    void textIsLikeIp() throws Exception {
        assertEquals("10.0.0.1:18515", SockAddrs.text(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 18515)));
        assertEquals("10.0.0.1", SockAddrs.text(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 0)));
        assertEquals("[fd00::1]:7", SockAddrs.text(new InetSocketAddress(InetAddress.getByName("fd00:0:0:0:0:0:0:1"), 7)));
    }

    @Test
    void unresolvedAddressIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SockAddrs.encode(InetSocketAddress.createUnresolved("server", 1), arena));
            assertTrue(e.getMessage().contains("unresolved"), e.getMessage());
        }
    }
}
