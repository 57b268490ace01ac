package io.jperf.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Linux errno values as names ({@code ENOSYS}) and text ({@code strerror}).
 *
 * <p>The numbers are the generic Linux ones (asm-generic/errno*.h), used by x86_64 and aarch64;
 * a test checks them against the C headers. Threading: all methods are thread-safe.
 * {@link #name(int)} needs no native access; {@link #describe(int)} calls libc {@code strerror}
 * once per value and caches the text for the life of the class (the text follows the process
 * locale at that first call).
 */
public final class Errno {

    /** Function not implemented: this kernel has no RDMA support (ibv_get_device_list). */
    public static final int ENOSYS = 38;
    /** No such device: no RDMA device or the rdma_cm kernel module is absent. */
    public static final int ENODEV = 19;

    private static final String[] NAMES = new String[134];

    static {
        String[] known = {
            "1 EPERM", "2 ENOENT", "3 ESRCH", "4 EINTR", "5 EIO", "6 ENXIO", "7 E2BIG", "8 ENOEXEC",
            "9 EBADF", "10 ECHILD", "11 EAGAIN", "12 ENOMEM", "13 EACCES", "14 EFAULT", "16 EBUSY",
            "17 EEXIST", "18 EXDEV", "19 ENODEV", "20 ENOTDIR", "21 EISDIR", "22 EINVAL", "23 ENFILE",
            "24 EMFILE", "25 ENOTTY", "27 EFBIG", "28 ENOSPC", "29 ESPIPE", "30 EROFS", "32 EPIPE",
            "33 EDOM", "34 ERANGE", "35 EDEADLK", "36 ENAMETOOLONG", "38 ENOSYS", "40 ELOOP",
            "61 ENODATA", "62 ETIME", "71 EPROTO", "74 EBADMSG", "75 EOVERFLOW", "88 ENOTSOCK",
            "90 EMSGSIZE", "92 ENOPROTOOPT", "93 EPROTONOSUPPORT", "95 EOPNOTSUPP", "97 EAFNOSUPPORT",
            "98 EADDRINUSE", "99 EADDRNOTAVAIL", "100 ENETDOWN", "101 ENETUNREACH", "102 ENETRESET",
            "103 ECONNABORTED", "104 ECONNRESET", "105 ENOBUFS", "106 EISCONN", "107 ENOTCONN",
            "108 ESHUTDOWN", "110 ETIMEDOUT", "111 ECONNREFUSED", "112 EHOSTDOWN", "113 EHOSTUNREACH",
            "114 EALREADY", "115 EINPROGRESS", "116 ESTALE", "125 ECANCELED", "130 EOWNERDEAD",
        };
        for (String entry : known) {
            int space = entry.indexOf(' ');
            NAMES[Integer.parseInt(entry, 0, space, 10)] = entry.substring(space + 1);
        }
    }

    private static final ConcurrentHashMap<Integer, String> DESCRIPTIONS = new ConcurrentHashMap<>();

    private Errno() {
    }

    /**
     * @return the symbolic name, e.g. {@code "ENOSYS"} for 38, or {@code "E?" + errno} if not in
     *     the table ({@code EWOULDBLOCK}/{@code ENOTSUP} come back as {@code EAGAIN}/{@code EOPNOTSUPP})
     */
    public static String name(int errno) {
        String name = errno >= 0 && errno < NAMES.length ? NAMES[errno] : null;
        return name != null ? name : "E?" + errno;
    }

    /** @return libc's {@code strerror(errno)}, e.g. "Function not implemented"; cached. */
    public static String describe(int errno) {
        return DESCRIPTIONS.computeIfAbsent(errno, Strerror::call);
    }

    /** @return e.g. {@code "ENOSYS (38): Function not implemented"}, for exception messages. */
    public static String format(int errno) {
        return name(errno) + " (" + errno + "): " + describe(errno);
    }

    /** Every (number, name) pair {@link #name(int)} knows; for the header conformance test. */
    static String[] knownNames() {
        return NAMES.clone();
    }

    /** Lazy holder: only {@link #describe(int)} needs a downcall and native access. */
    @SuppressWarnings("restricted")
    private static final class Strerror {
        private static final MethodHandle STRERROR = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().findOrThrow("strerror"),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

        static String call(int errno) {
            try {
                MemorySegment text = (MemorySegment) STRERROR.invokeExact(errno);
                // glibc returns a static string, or a thread-local buffer for unknown values;
                // both stay valid until this thread's next strerror call, so read it now.
                return text.equals(MemorySegment.NULL) ? "errno " + errno
                        : text.reinterpret(Long.MAX_VALUE).getString(0);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError("strerror downcall", t);
            }
        }
    }
}
