package io.jperf.cm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The two libc calls the CM event channel needs to never block forever: {@code fcntl} (to set
 * {@code O_NONBLOCK} on the channel's fd) and {@code poll} (to wait for it with a timeout).
 *
 * <p>Package-private on purpose: the restricted linker use stays in this one class. Errno is
 * captured by the linker, like {@code io.jperf.ffi.ErrnoCalls}. Stateless and thread-safe; each
 * call allocates its own call state.
 */
@SuppressWarnings("restricted")
final class Fds {

    static final int F_GETFL = 3;
    static final int F_SETFL = 4;
    /** {@code O_NONBLOCK} on x86_64 and aarch64 (asm-generic). */
    static final int O_NONBLOCK = 0x800;
    static final short POLLIN = 0x1;
    static final short POLLERR = 0x8;
    static final short POLLHUP = 0x10;
    static final short POLLNVAL = 0x20;
    static final int EINTR = 4;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    /** {@code struct pollfd { int fd; short events; short revents; }}. */
    static final StructLayout POLLFD = MemoryLayout.structLayout(
            ValueLayout.JAVA_INT.withName("fd"), ValueLayout.JAVA_SHORT.withName("events"),
            ValueLayout.JAVA_SHORT.withName("revents"));

    /** {@code int fcntl(int fd, int cmd)}: variadic, called with no variadic argument. */
    private static final MethodHandle FCNTL_GET = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int fcntl(int fd, int cmd, int arg)}: variadic, one int argument. */
    private static final MethodHandle FCNTL_SET = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("fcntl"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            CAPTURE_ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms)}. */
    private static final MethodHandle POLL = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("poll"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT),
            CAPTURE_ERRNO);

    private Fds() {
    }

    /** A failed libc call: its name and errno (positive). */
    static final class FdException extends Exception {
        private static final long serialVersionUID = 1L;
        final String call;
        final int errno;

        FdException(String call, int errno) {
            super(call + " failed with errno " + errno);
            this.call = call;
            this.errno = errno;
        }
    }

    /** Sets {@code O_NONBLOCK} on {@code fd}, keeping its other status flags. */
    static void setNonBlocking(int fd) throws FdException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int flags = (int) FCNTL_GET.invokeExact(state, fd, F_GETFL);
            if (flags < 0) {
                throw new FdException("fcntl(" + fd + ", F_GETFL)", errno(state));
            }
            if ((flags & O_NONBLOCK) != 0) {
                return;
            }
            if ((int) FCNTL_SET.invokeExact(state, fd, F_SETFL, flags | O_NONBLOCK) < 0) {
                throw new FdException("fcntl(" + fd + ", F_SETFL, O_NONBLOCK)", errno(state));
            }
        } catch (FdException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("fcntl", t);
        }
    }

    /** @return {@code true} if {@code O_NONBLOCK} is set on {@code fd} */
    static boolean isNonBlocking(int fd) throws FdException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int flags = (int) FCNTL_GET.invokeExact(state, fd, F_GETFL);
            if (flags < 0) {
                throw new FdException("fcntl(" + fd + ", F_GETFL)", errno(state));
            }
            return (flags & O_NONBLOCK) != 0;
        } catch (FdException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("fcntl", t);
        }
    }

    /**
     * Waits until {@code fd} is readable or {@code timeoutMillis} passed, retrying on EINTR with
     * the time left.
     *
     * @return the {@code revents} bits (0 on timeout)
     */
    static int pollIn(int fd, long timeoutMillis) throws FdException {
        long deadline = System.nanoTime() + Math.max(0, timeoutMillis) * 1_000_000L;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment pfd = arena.allocate(POLLFD);
            while (true) {
                long left = Math.max(0, (deadline - System.nanoTime() + 999_999) / 1_000_000L);
                pfd.set(ValueLayout.JAVA_INT, 0, fd);
                pfd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
                pfd.set(ValueLayout.JAVA_SHORT, 6, (short) 0);
                int n = (int) POLL.invokeExact(state, pfd, 1L, (int) Math.min(left, Integer.MAX_VALUE));
                if (n > 0) {
                    return Short.toUnsignedInt(pfd.get(ValueLayout.JAVA_SHORT, 6));
                }
                if (n == 0) {
                    return 0;
                }
                int errno = errno(state);
                if (errno != EINTR) {
                    throw new FdException("poll(" + fd + ")", errno);
                }
            }
        } catch (FdException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("poll", t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }
}
