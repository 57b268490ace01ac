package io.jperf.ffi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * The few libc calls jperf needs outside rdma-core: the socket calls behind
 * {@link NetlinkSocket}, {@code sched_getcpu}, thread CPU affinity ({@code gettid},
 * {@code sched_getaffinity}/{@code sched_setaffinity}), {@code open}/{@code setns} for opening a socket
 * inside another network namespace, and {@code fcntl}/{@code poll} so that a file descriptor
 * owned by another library (e.g. an RDMA CM event channel's) never blocks forever:
 * {@link #setNonBlocking(int)} and {@link #pollIn(int, long)}; and {@code mmap}/{@code munmap} of
 * huge-page memory for test buffers ({@link #mapHugePages(long)}).
 *
 * <p>Every downcall captures {@code errno} through {@code Linker.Option.captureCallState("errno")},
 * like {@link ErrnoCalls}; failures surface as {@link LibcException} naming the call. The raw
 * socket wrappers are package-private: code outside this package uses {@link NetlinkSocket},
 * so restricted operations stay in {@code io.jperf.ffi}.
 *
 * <p>Lifecycle: handles are created in the static initialiser from the C library the JVM already
 * links (no extra library is loaded). Threading: all methods are thread-safe; each call
 * allocates its own call-state segment.
 */
@SuppressWarnings("restricted")
public final class Libc {

    /** {@code AF_NETLINK}. */
    static final int AF_NETLINK = 16;
    /** {@code SOCK_RAW}. */
    static final int SOCK_RAW = 3;
    /** {@code SOCK_CLOEXEC} (same as {@code O_CLOEXEC} on x86_64 and aarch64). */
    static final int SOCK_CLOEXEC = 0x80000;
    /** {@code SOL_SOCKET} (asm-generic). */
    static final int SOL_SOCKET = 1;
    /** {@code SO_RCVTIMEO} with a 64-bit {@code struct timeval} (asm-generic, 64-bit ABIs). */
    static final int SO_RCVTIMEO = 20;
    /** {@code SO_SNDTIMEO} (asm-generic, 64-bit ABIs). */
    static final int SO_SNDTIMEO = 21;
    /** {@code SOL_NETLINK}. */
    static final int SOL_NETLINK = 270;
    /** {@code NETLINK_EXT_ACK}: error replies carry the kernel's message text. */
    static final int NETLINK_EXT_ACK = 11;
    /** {@code MSG_TRUNC}: recv returns the real datagram length even when it did not fit. */
    static final int MSG_TRUNC = 0x20;
    /** {@code O_RDONLY | O_CLOEXEC}. */
    static final int O_RDONLY_CLOEXEC = 0x80000;
    /** {@code CLONE_NEWNET}, the namespace type for {@code setns}. */
    static final int CLONE_NEWNET = 0x40000000;
    static final int EINTR = 4;
    /** {@code F_GETFL}. */
    static final int F_GETFL = 3;
    /** {@code F_SETFL}. */
    static final int F_SETFL = 4;
    /** {@code O_NONBLOCK} on x86_64 and aarch64 (asm-generic). */
    static final int O_NONBLOCK = 0x800;
    /** {@code POLLIN}: there is data to read. */
    public static final int POLLIN = 0x1;
    /** {@code POLLERR}: an error condition on the fd (always reported). */
    public static final int POLLERR = 0x8;
    /** {@code POLLHUP}: hang up (always reported). */
    public static final int POLLHUP = 0x10;
    /** {@code POLLNVAL}: the fd is not open (always reported). */
    public static final int POLLNVAL = 0x20;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
    private static final ValueLayout PTR = ValueLayout.ADDRESS;
    /** A {@code cpu_set_t} of 1024 CPUs, glibc's size. */
    private static final int AFFINITY_MASK_BYTES = 128;

    /** {@code struct pollfd { int fd; short events; short revents; }}. */
    private static final StructLayout POLLFD = MemoryLayout.structLayout(
            INT.withName("fd"), ValueLayout.JAVA_SHORT.withName("events"), ValueLayout.JAVA_SHORT.withName("revents"));
    private static final long POLLFD_EVENTS = POLLFD.byteOffset(MemoryLayout.PathElement.groupElement("events"));
    private static final long POLLFD_REVENTS = POLLFD.byteOffset(MemoryLayout.PathElement.groupElement("revents"));

    // Package-private so a test can check every handle's type against its wrapper.
    static final MethodHandle SOCKET = downcall("socket", FunctionDescriptor.of(INT, INT, INT, INT));
    static final MethodHandle BIND = downcall("bind", FunctionDescriptor.of(INT, INT, PTR, INT));
    static final MethodHandle SETSOCKOPT = downcall("setsockopt", FunctionDescriptor.of(INT, INT, INT, INT, PTR, INT));
    static final MethodHandle SENDTO = downcall("sendto", FunctionDescriptor.of(SIZE_T, INT, PTR, SIZE_T, INT, PTR, INT));
    static final MethodHandle RECV = downcall("recv", FunctionDescriptor.of(SIZE_T, INT, PTR, SIZE_T, INT));
    static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(INT, INT));
    static final MethodHandle SCHED_GETCPU = downcall("sched_getcpu", FunctionDescriptor.of(INT));
    static final MethodHandle SETNS = downcall("setns", FunctionDescriptor.of(INT, INT, INT));
    static final MethodHandle SCHED_SETAFFINITY = downcall("sched_setaffinity", FunctionDescriptor.of(INT, INT, SIZE_T, PTR));
    static final MethodHandle SCHED_GETAFFINITY = downcall("sched_getaffinity", FunctionDescriptor.of(INT, INT, SIZE_T, PTR));
    static final MethodHandle GETTID = downcall("gettid", FunctionDescriptor.of(INT));
    /** {@code open} is variadic; called with exactly its two fixed arguments. */
    static final MethodHandle OPEN = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("open"),
            FunctionDescriptor.of(INT, PTR, INT), CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int fcntl(int fd, int cmd, ...)} with no variadic argument ({@code F_GETFL}). */
    static final MethodHandle FCNTL_GET = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(INT, INT, INT), CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int fcntl(int fd, int cmd, ...)} with one int argument ({@code F_SETFL}). */
    static final MethodHandle FCNTL_SET = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(INT, INT, INT, INT), CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)}. */
    static final MethodHandle POLL = downcall("poll", FunctionDescriptor.of(INT, PTR, SIZE_T, INT));
    /** {@code void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset)}. */
    static final MethodHandle MMAP = downcall("mmap", FunctionDescriptor.of(PTR, PTR, SIZE_T, INT, INT, INT, SIZE_T));
    /** {@code int munmap(void *addr, size_t length)}. */
    static final MethodHandle MUNMAP = downcall("munmap", FunctionDescriptor.of(INT, PTR, SIZE_T));

    /** {@code PROT_READ | PROT_WRITE} (<sys/mman.h>, x86-64 and aarch64). */
    static final int PROT_READ_WRITE = 0x1 | 0x2;
    /** {@code MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB}: huge pages of the system's default size. */
    static final int MAP_PRIVATE_ANONYMOUS_HUGETLB = 0x02 | 0x20 | 0x40000;
    /** {@code mmap}'s failure value, {@code (void *) -1}. */
    private static final long MAP_FAILED = -1L;

    private Libc() {
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow(name), descriptor, CAPTURE_ERRNO);
    }

    static MemorySegment newCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    /**
     * The CPU the calling thread is running on right now ({@code sched_getcpu(3)}). The answer can
     * be stale as soon as it returns unless the thread is pinned.
     *
     * @return the CPU number, from 0
     * @throws LibcException if the kernel cannot tell (ENOSYS)
     */
    public static int currentCpu() throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            int cpu = (int) SCHED_GETCPU.invokeExact(state);
            if (cpu < 0) {
                throw new LibcException("sched_getcpu()", errno(state), null);
            }
            return cpu;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("sched_getcpu", t);
        }
    }

    /**
     * Pins the calling thread (only it, not the process) to one CPU ({@code sched_setaffinity(2)}
     * with pid 0), so a busy-polling test loop keeps its CPU while the JVM's other threads run on
     * the rest.
     *
     * @throws LibcException e.g. EINVAL when the CPU does not exist or is not allowed (cpuset)
     */
    public static void pinCurrentThread(int cpu) throws LibcException {
        if (cpu < 0 || cpu >= 1024) {
            throw new IllegalArgumentException("CPU " + cpu + " is outside 0..1023");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(128);
            mask.set(java.lang.foreign.ValueLayout.JAVA_BYTE, cpu / 8, (byte) (1 << (cpu % 8)));
            MemorySegment state = newCallState(arena);
            int rc = (int) SCHED_SETAFFINITY.invokeExact(state, 0, mask.byteSize(), mask);
            if (rc != 0) {
                throw new LibcException("sched_setaffinity(CPU " + cpu + ")", errno(state), null);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("sched_setaffinity", t);
        }
    }

    /** The kernel's id of the calling thread ({@code gettid(2)}), as listed in {@code /proc/self/task}. */
    public static int currentThreadId() {
        try (Arena arena = Arena.ofConfined()) {
            return (int) GETTID.invokeExact(newCallState(arena));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("gettid", t);
        }
    }

    /**
     * The CPUs thread {@code tid} of this process may run on ({@code sched_getaffinity(2)}; 0 = the
     * calling thread).
     *
     * @throws LibcException e.g. ESRCH when the thread has ended
     */
    public static java.util.BitSet threadAffinity(int tid) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(AFFINITY_MASK_BYTES);
            MemorySegment state = newCallState(arena);
            int rc = (int) SCHED_GETAFFINITY.invokeExact(state, tid, mask.byteSize(), mask);
            if (rc < 0) {
                throw new LibcException("sched_getaffinity(thread " + tid + ")", errno(state), null);
            }
            long[] words = new long[AFFINITY_MASK_BYTES / 8];
            // a copy into the array, never toArray: a heap segment would slow every segment access (LabNoHeapSegmentTest)
            MemorySegment.copy(mask, ValueLayout.JAVA_LONG, 0, words, 0, words.length);
            return java.util.BitSet.valueOf(words);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("sched_getaffinity", t);
        }
    }

    /**
     * Lets thread {@code tid} of this process (0 = the calling thread) run only on {@code cpus}
     * ({@code sched_setaffinity(2)}).
     *
     * @throws LibcException e.g. EINVAL when none of the CPUs is allowed (cpuset), ESRCH when the thread has ended
     */
    public static void setThreadAffinity(int tid, java.util.BitSet cpus) throws LibcException {
        if (cpus.isEmpty() || cpus.length() > AFFINITY_MASK_BYTES * 8) {
            throw new IllegalArgumentException("CPU set " + cpus + " is empty or outside 0.." + (AFFINITY_MASK_BYTES * 8 - 1));
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(AFFINITY_MASK_BYTES);
            long[] words = cpus.toLongArray();
            MemorySegment.copy(words, 0, mask, ValueLayout.JAVA_LONG, 0, words.length);
            MemorySegment state = newCallState(arena);
            int rc = (int) SCHED_SETAFFINITY.invokeExact(state, tid, mask.byteSize(), mask);
            if (rc != 0) {
                throw new LibcException("sched_setaffinity(thread " + tid + ", CPUs " + cpus + ")", errno(state), null);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("sched_setaffinity", t);
        }
    }

    // ---- raw wrappers: C result unchanged, errno in callState -----------------------------

    static int socket(MemorySegment callState, int domain, int type, int protocol) {
        try {
            return (int) SOCKET.invokeExact(callState, domain, type, protocol);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("socket", t);
        }
    }

    static int bind(MemorySegment callState, int fd, MemorySegment addr, int addrLen) {
        try {
            return (int) BIND.invokeExact(callState, fd, addr, addrLen);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("bind", t);
        }
    }

    static int setsockopt(MemorySegment callState, int fd, int level, int name, MemorySegment value, int valueLen) {
        try {
            return (int) SETSOCKOPT.invokeExact(callState, fd, level, name, value, valueLen);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("setsockopt", t);
        }
    }

    static long sendto(MemorySegment callState, int fd, MemorySegment buf, long len, int flags,
                       MemorySegment addr, int addrLen) {
        try {
            return (long) SENDTO.invokeExact(callState, fd, buf, len, flags, addr, addrLen);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("sendto", t);
        }
    }

    static long recv(MemorySegment callState, int fd, MemorySegment buf, long len, int flags) {
        try {
            return (long) RECV.invokeExact(callState, fd, buf, len, flags);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("recv", t);
        }
    }

    static int close(MemorySegment callState, int fd) {
        try {
            return (int) CLOSE.invokeExact(callState, fd);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("close", t);
        }
    }

    static int setns(MemorySegment callState, int fd, int nstype) {
        try {
            return (int) SETNS.invokeExact(callState, fd, nstype);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("setns", t);
        }
    }

    static int open(MemorySegment callState, MemorySegment path, int flags) {
        try {
            return (int) OPEN.invokeExact(callState, path, flags);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("open", t);
        }
    }

    // ---- file descriptors: O_NONBLOCK and poll ----------------------------------------------

    /**
     * Sets {@code O_NONBLOCK} on {@code fd}, keeping its other status flags ({@code fcntl(2)}
     * {@code F_GETFL}, then {@code F_SETFL} unless the flag is already set).
     *
     * @throws LibcException naming {@code fcntl}, the fd and the command (e.g. EBADF)
     */
    public static void setNonBlocking(int fd) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            int flags = statusFlags(state, fd);
            if ((flags & O_NONBLOCK) == 0 && (int) FCNTL_SET.invokeExact(state, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
                throw new LibcException("fcntl(" + fd + ", F_SETFL, O_NONBLOCK)", errno(state), null);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("fcntl", t);
        }
    }

    /**
     * @return {@code true} if {@code O_NONBLOCK} is set on {@code fd}
     * @throws LibcException naming {@code fcntl} (e.g. EBADF)
     */
    public static boolean isNonBlocking(int fd) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            return (statusFlags(newCallState(arena), fd) & O_NONBLOCK) != 0;
        }
    }

    private static int statusFlags(MemorySegment state, int fd) throws LibcException {
        int flags;
        try {
            flags = (int) FCNTL_GET.invokeExact(state, fd, F_GETFL);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("fcntl", t);
        }
        if (flags < 0) {
            throw new LibcException("fcntl(" + fd + ", F_GETFL)", errno(state), null);
        }
        return flags;
    }

    /**
     * Waits until {@code fd} is readable or {@code timeoutMillis} passed ({@code poll(2)} for
     * {@code POLLIN}), retrying on EINTR with the time left. A negative fd is ignored by the
     * kernel: the call is then a plain sleep.
     *
     * @param timeoutMillis how long to wait at most; 0 or less returns at once
     * @return the {@code revents} bits, 0 on timeout; {@link #POLLERR}, {@link #POLLHUP} and
     *     {@link #POLLNVAL} (the fd is not open) come back here, not as an exception
     * @throws LibcException naming {@code poll} and the fd, for an errno other than EINTR
     */
    public static int pollIn(int fd, long timeoutMillis) throws LibcException {
        long deadline = System.nanoTime() + Math.max(0, Math.min(timeoutMillis, Long.MAX_VALUE / 2_000_000L)) * 1_000_000L;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            MemorySegment pfd = arena.allocate(POLLFD);
            while (true) {
                long left = Math.max(0, (deadline - System.nanoTime() + 999_999) / 1_000_000L);
                pfd.set(INT, 0, fd);
                pfd.set(ValueLayout.JAVA_SHORT, POLLFD_EVENTS, (short) POLLIN);
                pfd.set(ValueLayout.JAVA_SHORT, POLLFD_REVENTS, (short) 0);
                int n = (int) POLL.invokeExact(state, pfd, 1L, (int) Math.min(left, Integer.MAX_VALUE));
                if (n > 0) {
                    return Short.toUnsignedInt(pfd.get(ValueLayout.JAVA_SHORT, POLLFD_REVENTS));
                }
                if (n == 0) {
                    return 0;
                }
                int errno = errno(state);
                if (errno != EINTR) {
                    throw new LibcException("poll(" + fd + ")", errno, null);
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("poll", t);
        }
    }

    /**
     * Moves the <em>calling thread</em> into the network namespace {@code nsFile} (e.g.
     * {@code /run/netns/blue} or {@code /proc/<pid>/ns/net}). Only for a short-lived thread
     * that is discarded afterwards; see {@link NetlinkSocket#openInNamespace}.
     */
    static void enterNetworkNamespace(Path nsFile) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            int fd = open(state, arena.allocateFrom(nsFile.toString()), O_RDONLY_CLOEXEC);
            if (fd < 0) {
                throw new LibcException("open(" + nsFile + ")", errno(state), "not a network namespace file?");
            }
            try {
                if (setns(state, fd, CLONE_NEWNET) != 0) {
                    throw new LibcException("setns(" + nsFile + ", CLONE_NEWNET)", errno(state),
                            "needs CAP_SYS_ADMIN");
                }
            } finally {
                close(state, fd);
            }
        }
    }

    // ---- memory: huge pages -----------------------------------------------------------------

    /**
     * Maps {@code length} bytes of zeroed, private, anonymous memory from huge pages ({@code mmap(2)}
     * with {@code MAP_HUGETLB}); {@code length} must be a multiple of the huge page size.
     *
     * @return the mapping's address as a zero-length segment; the caller gives it a size and a lifetime
     *     and unmaps it with {@link #unmap(MemorySegment, long)}
     * @throws LibcException naming {@code mmap}, e.g. ENOMEM when too few huge pages are free
     */
    public static MemorySegment mapHugePages(long length) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            MemorySegment mapped = (MemorySegment) MMAP.invokeExact(state, MemorySegment.NULL, length,
                    PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_HUGETLB, -1, 0L);
            if (mapped.address() == MAP_FAILED || mapped.address() == 0) {
                throw new LibcException("mmap(" + length + " bytes, MAP_HUGETLB)", errno(state), null);
            }
            return mapped;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("mmap", t);
        }
    }

    /**
     * Unmaps what {@link #mapHugePages(long)} mapped ({@code munmap(2)}).
     *
     * @throws LibcException naming {@code munmap} (EINVAL: not a mapping of that length)
     */
    public static void unmap(MemorySegment address, long length) throws LibcException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = newCallState(arena);
            if ((int) MUNMAP.invokeExact(state, address, length) != 0) {
                throw new LibcException("munmap(" + length + " bytes)", errno(state), null);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("munmap", t);
        }
    }
}
