package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The raw netlink socket against the real kernel of this machine (no root needed, except the netns test). */
class NetlinkSocketTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** RTM_GETLINK for one ifindex: nlmsghdr(16) + ifinfomsg(16). */
    static byte[] getLink(int ifindex, int seq, boolean dump) {
        ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder());
        b.putInt(32).putShort((short) 18).putShort((short) (dump ? 0x301 : 0x1)).putInt(seq).putInt(0);
        b.put((byte) 0).put((byte) 0).putShort((short) 0).putInt(ifindex).putInt(0).putInt(0);
        return b.array();
    }

    /** (type, seq, ifindex-or-errno, ifname) of every message in the datagrams until DONE/ERROR or a single reply. */
    static List<String> exchange(NetlinkSocket nl, byte[] request) throws LibcException {
        nl.send(request);
        List<String> out = new ArrayList<>();
        while (true) {
            ByteBuffer b = ByteBuffer.wrap(nl.receive()).order(ByteOrder.nativeOrder());
            boolean multi = false;
            while (b.remaining() >= 16) {
                int start = b.position();
                int len = b.getInt();
                int type = b.getShort() & 0xffff;
                int flags = b.getShort() & 0xffff;
                int seq = b.getInt();
                b.getInt();
                multi |= (flags & 2) != 0;
                if (type == 3) {
                    return out;
                }
                if (type == 2) {
                    out.add("error seq=" + seq + " errno=" + (-b.getInt()));
                    return out;
                }
                b.position(start + 16 + 4);
                int index = b.getInt();
                String name = "";
                int attr = start + 32;
                while (attr + 4 <= start + len) {
                    int alen = b.getShort(attr) & 0xffff;
                    int atype = b.getShort(attr + 2) & 0x3fff;
                    if (alen < 4) {
                        break;
                    }
                    if (atype == 3) {
                        byte[] raw = new byte[alen - 5];
                        b.get(attr + 4, raw);
                        name = new String(raw, StandardCharsets.US_ASCII);
                    }
                    attr += (alen + 3) & ~3;
                }
                out.add("type=" + type + " seq=" + seq + " index=" + index + " name=" + name);
                b.position(start + ((len + 3) & ~3));
            }
            if (!multi) {
                return out;
            }
        }
    }

    @Test
    void getLinkOfLoopbackIsAnsweredByTheKernel() throws LibcException {
        try (NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, TIMEOUT)) {
            assertEquals(List.of("type=16 seq=7 index=1 name=lo"), exchange(nl, getLink(1, 7, false)));
        }
    }

    @Test
    void unknownIfindexIsAnErrorReplyWithEnodev() throws LibcException {
        try (NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, TIMEOUT)) {
            assertEquals(List.of("error seq=9 errno=" + Errno.ENODEV), exchange(nl, getLink(0x7ffffff0, 9, false)));
        }
    }

    @Test
    void receiveWithoutRequestTimesOutWithEagainNamingRecv() throws LibcException {
        try (NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, Duration.ofMillis(50))) {
            long start = System.nanoTime();
            LibcException e = assertThrows(LibcException.class, nl::receive);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(11, e.errno(), e.getMessage());
            assertTrue(e.call().startsWith("recv("), e.call());
            assertTrue(e.getMessage().contains("EAGAIN (11)") && e.getMessage().contains("within 50 ms"), e.getMessage());
            assertTrue(ms >= 40 && ms < 1500, "waited " + ms + " ms");
        }
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseThrows() throws LibcException {
        NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, TIMEOUT);
        nl.close();
        nl.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, nl::receive);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> nl.send(getLink(1, 1, false)));
    }

    @Test
    void badProtocolNamesSocketAndErrno() {
        LibcException e = assertThrows(LibcException.class, () -> NetlinkSocket.open(9999, TIMEOUT));
        assertTrue(e.call().startsWith("socket(AF_NETLINK"), e.call());
        assertEquals("EPROTONOSUPPORT", Errno.name(e.errno()), e.getMessage());
    }

    @Test
    void timeoutMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> NetlinkSocket.open(0, Duration.ZERO));
    }

    @Test
    void missingNamespaceFileNamesOpenAndEnoent() {
        LibcException e = assertThrows(LibcException.class, () -> NetlinkSocket.openInNamespace(
                Path.of("/nonexistent/jperf-netns"), NetlinkSocket.NETLINK_ROUTE, TIMEOUT));
        assertEquals("ENOENT", Errno.name(e.errno()), e.getMessage());
        assertTrue(e.call().startsWith("open(/nonexistent/jperf-netns"), e.call());
    }

    @Test
    void socketOpenedInAFreshNamespaceSeesOnlyItsLoopback() throws Exception {
        String ns = "jperf-nltest-" + ProcessHandle.current().pid();
        Assumptions.assumeTrue(run("ip", "netns", "add", ns), "cannot create a network namespace here (needs root and ip)");
        try (NetlinkSocket nl = NetlinkSocket.openInNamespace(Path.of("/run/netns", ns),
                NetlinkSocket.NETLINK_ROUTE, TIMEOUT)) {
            assertEquals(List.of("type=16 seq=3 index=1 name=lo"), exchange(nl, getLink(0, 3, true)));
        } finally {
            assertTrue(run("ip", "netns", "del", ns), "cleanup: ip netns del " + ns);
        }
        // The calling thread never moved: this thread still sees the host's interfaces.
        try (NetlinkSocket nl = NetlinkSocket.open(NetlinkSocket.NETLINK_ROUTE, TIMEOUT)) {
            assertTrue(exchange(nl, getLink(0, 4, true)).size() >= 1);
        }
    }

    @Test
    void currentCpuIsInRange() throws LibcException {
        int cpu = Libc.currentCpu();
        assertTrue(cpu >= 0 && cpu < 4096, "cpu " + cpu);
    }

    @Test
    void handlesHaveTheWrappersSignatures() {
        assertEquals("(MemorySegment,int,int,int)int", Libc.SOCKET.type().toString());
        assertEquals("(MemorySegment,int,MemorySegment,long,int,MemorySegment,int)long", Libc.SENDTO.type().toString());
        assertEquals("(MemorySegment,int,MemorySegment,long,int)long", Libc.RECV.type().toString());
        assertEquals("(MemorySegment,MemorySegment,int)int", Libc.OPEN.type().toString());
        assertEquals("(MemorySegment)int", Libc.SCHED_GETCPU.type().toString());
    }

    private static boolean run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
