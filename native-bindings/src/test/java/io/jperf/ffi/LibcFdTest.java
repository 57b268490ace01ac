package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

/** {@link Libc}'s file-descriptor calls ({@code fcntl} O_NONBLOCK, {@code poll}) against this machine's kernel. */
class LibcFdTest {

    private static final int NETLINK_ROUTE = 0;

    @Test
    void pollWaitsForItsTimeoutAndNoLonger() throws LibcException {
        long t0 = System.nanoTime();
        assertEquals(0, Libc.pollIn(-1, 150), "a negative fd is ignored by poll: plain timeout");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 140 && ms < 2_000, "waited " + ms + " ms");
    }

    @Test
    void pollAndFcntlReportABadFd() throws LibcException {
        int closedFd = 1_000_000; // beyond any open descriptor
        assertEquals(Libc.POLLNVAL, Libc.pollIn(closedFd, 1000) & Libc.POLLNVAL);
        LibcException e = assertThrows(LibcException.class, () -> Libc.setNonBlocking(closedFd));
        assertEquals(9, e.errno(), "EBADF");
        assertEquals("fcntl(1000000, F_GETFL)", e.call());
        assertTrue(e.getMessage().contains("EBADF"), e.getMessage());
        assertEquals(9, assertThrows(LibcException.class, () -> Libc.isNonBlocking(closedFd)).errno());
    }

    @Test
    void setNonBlockingSetsTheFlagOnceAndAnIdleFdPollsToATimeout() throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Libc.newCallState(arena);
            int fd = Libc.socket(state, Libc.AF_NETLINK, Libc.SOCK_RAW | Libc.SOCK_CLOEXEC, NETLINK_ROUTE);
            assertTrue(fd >= 0, "socket errno " + Libc.errno(state));
            try {
                assertFalse(Libc.isNonBlocking(fd));
                Libc.setNonBlocking(fd);
                assertTrue(Libc.isNonBlocking(fd));
                Libc.setNonBlocking(fd); // already set: no F_SETFL, no error
                assertTrue(Libc.isNonBlocking(fd));
                assertEquals(0, Libc.pollIn(fd, 20), "nothing was sent, so nothing to read");
            } finally {
                Libc.close(state, fd);
            }
        }
    }

    @Test
    void handlesHaveTheWrappersSignatures() {
        assertEquals("(MemorySegment,int,int)int", Libc.FCNTL_GET.type().toString());
        assertEquals("(MemorySegment,int,int,int)int", Libc.FCNTL_SET.type().toString());
        assertEquals("(MemorySegment,MemorySegment,long,int)int", Libc.POLL.type().toString());
    }
}
