package io.jperf.ffi;

import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Downcalls that report failure through {@code errno}, with errno captured by the linker.
 *
 * <p>The generated {@code rdma_h} downcalls do not capture errno, and reading it afterwards
 * through another downcall is unreliable (the JVM itself may have changed it). Every method
 * here takes a call-state segment first, then the C arguments in C order, and returns the C
 * result unchanged; on failure read {@link #errno(MemorySegment)} from the same segment.
 * Signatures (address and {@code FunctionDescriptor}) come from the generated bindings, so
 * they follow the installed headers.
 *
 * <pre>{@code
 * MemorySegment state = ErrnoCalls.newCallState(arena);
 * MemorySegment list = ErrnoCalls.ibv_get_device_list(state, numDevices);
 * if (list.equals(MemorySegment.NULL)) {
 *     throw new IOException("ibv_get_device_list failed: " + Errno.format(ErrnoCalls.errno(state)));
 * }
 * }</pre>
 *
 * <p>Lifecycle: call {@link RdmaLibraries#ensureAvailable()} first; this class's static
 * initialiser fails with an {@link ExceptionInInitializerError} caused by
 * {@link RdmaUnavailableException} if the libraries are missing. Each handle is linked on the
 * first call of its function. Threading: the
 * handles are immutable and thread-safe; a call-state segment holds one result, so give each
 * thread its own (or confine one to the owner of the verbs object). These calls are control
 * path: they may block (event getters) or enter the kernel; the data path is {@link InlineVerbs}.
 */
@SuppressWarnings("restricted")
public final class ErrnoCalls {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    static {
        RdmaLibraries.ensureAvailable();
    }

    // One holder class per handle, so each downcall is linked when it is first called: linking costs
    // milliseconds per function (and touching rdma_h's symbol also links jextract's own handle), and a
    // command that needs two of these functions should not pay for all of them at start-up. The
    // handles stay static finals, constants to the JIT. A test checks each against its method.
    private static final class IbvGetDeviceList {
        // Not through rdma_h's ibv_get_device_list$address()/$descriptor(): that holder class would link
        // jextract's own handle too, one more downcall stub (about 10 ms) on the start-up path of `jperf
        // devices`, whose first native call this is. ErrnoCallsTest checks the descriptor is rdma_h's.
        static final FunctionDescriptor DESCRIPTOR = FunctionDescriptor.of(rdma_h.C_POINTER, rdma_h.C_POINTER);
        static final MethodHandle HANDLE = capturing(SymbolLookup.libraryLookup(RdmaLibraries.IBVERBS, Arena.global())
                .findOrThrow("ibv_get_device_list"), DESCRIPTOR);
    }

    private static final class IbvOpenDevice {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_open_device$address(), rdma_h.ibv_open_device$descriptor());
    }

    private static final class IbvAllocPd {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_alloc_pd$address(), rdma_h.ibv_alloc_pd$descriptor());
    }

    private static final class IbvRegMr {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_reg_mr$address(), rdma_h.ibv_reg_mr$descriptor());
    }

    private static final class IbvCreateCompChannel {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_create_comp_channel$address(), rdma_h.ibv_create_comp_channel$descriptor());
    }

    private static final class IbvCreateCq {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_create_cq$address(), rdma_h.ibv_create_cq$descriptor());
    }

    private static final class IbvCreateQp {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_create_qp$address(), rdma_h.ibv_create_qp$descriptor());
    }

    private static final class IbvGetCqEvent {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_get_cq_event$address(), rdma_h.ibv_get_cq_event$descriptor());
    }

    private static final class IbvGetAsyncEvent {
        static final MethodHandle HANDLE =
                capturing(rdma_h.ibv_get_async_event$address(), rdma_h.ibv_get_async_event$descriptor());
    }

    private static final class RdmaCreateEventChannel {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_create_event_channel$address(), rdma_h.rdma_create_event_channel$descriptor());
    }

    private static final class RdmaCreateId {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_create_id$address(), rdma_h.rdma_create_id$descriptor());
    }

    private static final class RdmaBindAddr {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_bind_addr$address(), rdma_h.rdma_bind_addr$descriptor());
    }

    private static final class RdmaResolveAddr {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_resolve_addr$address(), rdma_h.rdma_resolve_addr$descriptor());
    }

    private static final class RdmaResolveRoute {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_resolve_route$address(), rdma_h.rdma_resolve_route$descriptor());
    }

    private static final class RdmaCreateQp {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_create_qp$address(), rdma_h.rdma_create_qp$descriptor());
    }

    private static final class RdmaConnect {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_connect$address(), rdma_h.rdma_connect$descriptor());
    }

    private static final class RdmaListen {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_listen$address(), rdma_h.rdma_listen$descriptor());
    }

    private static final class RdmaAccept {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_accept$address(), rdma_h.rdma_accept$descriptor());
    }

    private static final class RdmaReject {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_reject$address(), rdma_h.rdma_reject$descriptor());
    }

    private static final class RdmaDisconnect {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_disconnect$address(), rdma_h.rdma_disconnect$descriptor());
    }

    private static final class RdmaGetCmEvent {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_get_cm_event$address(), rdma_h.rdma_get_cm_event$descriptor());
    }

    private static final class RdmaSetOption {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_set_option$address(), rdma_h.rdma_set_option$descriptor());
    }

    private static final class RdmaMigrateId {
        static final MethodHandle HANDLE =
                capturing(rdma_h.rdma_migrate_id$address(), rdma_h.rdma_migrate_id$descriptor());
    }

    private ErrnoCalls() {
    }

    /** @return a zeroed call-state segment from {@code arena}, reusable across calls. */
    public static MemorySegment newCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** @return the errno captured by the last call that used {@code callState}. */
    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }

    private static MethodHandle capturing(MemorySegment address, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(address, descriptor, CAPTURE_ERRNO);
    }

    /**
     * {@code struct ibv_device **ibv_get_device_list(int *num_devices)}
     * <br>Failure: returns NULL and sets errno: ENOSYS when the kernel has no RDMA,
     * EPERM/EACCES without access to /dev/infiniband.
     */
    public static MemorySegment ibv_get_device_list(MemorySegment callState, MemorySegment num_devices) {
        try {
            return (MemorySegment) IbvGetDeviceList.HANDLE.invokeExact(callState, num_devices);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_get_device_list", t);
        }
    }

    /**
     * {@code struct ibv_context *ibv_open_device(struct ibv_device *device)}
     * <br>Failure: returns NULL and sets errno.
     */
    public static MemorySegment ibv_open_device(MemorySegment callState, MemorySegment device) {
        try {
            return (MemorySegment) IbvOpenDevice.HANDLE.invokeExact(callState, device);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_open_device", t);
        }
    }

    /**
     * {@code struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)}
     * <br>Failure: returns NULL and sets errno.
     */
    public static MemorySegment ibv_alloc_pd(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) IbvAllocPd.HANDLE.invokeExact(callState, context);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_alloc_pd", t);
        }
    }

    /**
     * {@code struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access)}
     * <br>Failure: returns NULL and sets errno: EINVAL, ENOMEM (memlock limit, ulimit -l), EFAULT.
     */
    public static MemorySegment ibv_reg_mr(MemorySegment callState, MemorySegment pd, MemorySegment addr, long length, int access) {
        try {
            return (MemorySegment) IbvRegMr.HANDLE.invokeExact(callState, pd, addr, length, access);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_reg_mr", t);
        }
    }

    /**
     * {@code struct ibv_comp_channel *ibv_create_comp_channel(struct ibv_context *context)}
     * <br>Failure: returns NULL and sets errno.
     */
    public static MemorySegment ibv_create_comp_channel(MemorySegment callState, MemorySegment context) {
        try {
            return (MemorySegment) IbvCreateCompChannel.HANDLE.invokeExact(callState, context);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_create_comp_channel", t);
        }
    }

    /**
     * {@code struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)}
     * <br>Failure: returns NULL and sets errno.
     */
    public static MemorySegment ibv_create_cq(MemorySegment callState, MemorySegment context, int cqe, MemorySegment cq_context, MemorySegment channel, int comp_vector) {
        try {
            return (MemorySegment) IbvCreateCq.HANDLE.invokeExact(callState, context, cqe, cq_context, channel, comp_vector);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_create_cq", t);
        }
    }

    /**
     * {@code struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)}
     * <br>Failure: returns NULL and sets errno: EINVAL (caps beyond device limits), ENOMEM.
     */
    public static MemorySegment ibv_create_qp(MemorySegment callState, MemorySegment pd, MemorySegment qp_init_attr) {
        try {
            return (MemorySegment) IbvCreateQp.HANDLE.invokeExact(callState, pd, qp_init_attr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_create_qp", t);
        }
    }

    /**
     * {@code int ibv_get_cq_event(struct ibv_comp_channel *channel, struct ibv_cq **cq, void **cq_context)}
     * <br>Failure: returns -1 and sets errno. Blocks unless
     * the channel fd is non-blocking (then EAGAIN).
     */
    public static int ibv_get_cq_event(MemorySegment callState, MemorySegment channel, MemorySegment cq, MemorySegment cq_context) {
        try {
            return (int) IbvGetCqEvent.HANDLE.invokeExact(callState, channel, cq, cq_context);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_get_cq_event", t);
        }
    }

    /**
     * {@code int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)}
     * <br>Failure: returns -1 and sets errno. Blocks unless
     * the context's async_fd is non-blocking (then EAGAIN).
     */
    public static int ibv_get_async_event(MemorySegment callState, MemorySegment context, MemorySegment event) {
        try {
            return (int) IbvGetAsyncEvent.HANDLE.invokeExact(callState, context, event);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("ibv_get_async_event", t);
        }
    }

    /**
     * {@code struct rdma_event_channel *rdma_create_event_channel()}
     * <br>Failure: returns NULL and sets errno: ENODEV when the kernel has no RDMA CM.
     */
    public static MemorySegment rdma_create_event_channel(MemorySegment callState) {
        try {
            return (MemorySegment) RdmaCreateEventChannel.HANDLE.invokeExact(callState);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_create_event_channel", t);
        }
    }

    /**
     * {@code int rdma_create_id(struct rdma_event_channel *channel, struct rdma_cm_id **id, void *context, enum rdma_port_space ps)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_create_id(MemorySegment callState, MemorySegment channel, MemorySegment id, MemorySegment context, int ps) {
        try {
            return (int) RdmaCreateId.HANDLE.invokeExact(callState, channel, id, context, ps);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_create_id", t);
        }
    }

    /**
     * {@code int rdma_bind_addr(struct rdma_cm_id *id, struct sockaddr *addr)}
     * <br>Failure: returns -1 and sets errno: EADDRINUSE,
     * EADDRNOTAVAIL, ENODEV (no RDMA device on that address).
     */
    public static int rdma_bind_addr(MemorySegment callState, MemorySegment id, MemorySegment addr) {
        try {
            return (int) RdmaBindAddr.HANDLE.invokeExact(callState, id, addr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_bind_addr", t);
        }
    }

    /**
     * {@code int rdma_resolve_addr(struct rdma_cm_id *id, struct sockaddr *src_addr, struct sockaddr *dst_addr, int timeout_ms)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_resolve_addr(MemorySegment callState, MemorySegment id, MemorySegment src_addr, MemorySegment dst_addr, int timeout_ms) {
        try {
            return (int) RdmaResolveAddr.HANDLE.invokeExact(callState, id, src_addr, dst_addr, timeout_ms);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_resolve_addr", t);
        }
    }

    /**
     * {@code int rdma_resolve_route(struct rdma_cm_id *id, int timeout_ms)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_resolve_route(MemorySegment callState, MemorySegment id, int timeout_ms) {
        try {
            return (int) RdmaResolveRoute.HANDLE.invokeExact(callState, id, timeout_ms);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_resolve_route", t);
        }
    }

    /**
     * {@code int rdma_create_qp(struct rdma_cm_id *id, struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_create_qp(MemorySegment callState, MemorySegment id, MemorySegment pd, MemorySegment qp_init_attr) {
        try {
            return (int) RdmaCreateQp.HANDLE.invokeExact(callState, id, pd, qp_init_attr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_create_qp", t);
        }
    }

    /**
     * {@code int rdma_connect(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_connect(MemorySegment callState, MemorySegment id, MemorySegment conn_param) {
        try {
            return (int) RdmaConnect.HANDLE.invokeExact(callState, id, conn_param);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_connect", t);
        }
    }

    /**
     * {@code int rdma_listen(struct rdma_cm_id *id, int backlog)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_listen(MemorySegment callState, MemorySegment id, int backlog) {
        try {
            return (int) RdmaListen.HANDLE.invokeExact(callState, id, backlog);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_listen", t);
        }
    }

    /**
     * {@code int rdma_accept(struct rdma_cm_id *id, struct rdma_conn_param *conn_param)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_accept(MemorySegment callState, MemorySegment id, MemorySegment conn_param) {
        try {
            return (int) RdmaAccept.HANDLE.invokeExact(callState, id, conn_param);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_accept", t);
        }
    }

    /**
     * {@code int rdma_reject(struct rdma_cm_id *id, const void *private_data, uint8_t private_data_len)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_reject(MemorySegment callState, MemorySegment id, MemorySegment private_data, byte private_data_len) {
        try {
            return (int) RdmaReject.HANDLE.invokeExact(callState, id, private_data, private_data_len);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_reject", t);
        }
    }

    /**
     * {@code int rdma_disconnect(struct rdma_cm_id *id)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_disconnect(MemorySegment callState, MemorySegment id) {
        try {
            return (int) RdmaDisconnect.HANDLE.invokeExact(callState, id);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_disconnect", t);
        }
    }

    /**
     * {@code int rdma_get_cm_event(struct rdma_event_channel *channel, struct rdma_cm_event **event)}
     * <br>Failure: returns -1 and sets errno. Blocks unless
     * the channel fd is non-blocking (then EAGAIN).
     */
    public static int rdma_get_cm_event(MemorySegment callState, MemorySegment channel, MemorySegment event) {
        try {
            return (int) RdmaGetCmEvent.HANDLE.invokeExact(callState, channel, event);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_get_cm_event", t);
        }
    }

    /**
     * {@code int rdma_set_option(struct rdma_cm_id *id, int level, int optname, void *optval, size_t optlen)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_set_option(MemorySegment callState, MemorySegment id, int level, int optname, MemorySegment optval, long optlen) {
        try {
            return (int) RdmaSetOption.HANDLE.invokeExact(callState, id, level, optname, optval, optlen);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_set_option", t);
        }
    }

    /**
     * {@code int rdma_migrate_id(struct rdma_cm_id *id, struct rdma_event_channel *channel)}
     * <br>Failure: returns -1 and sets errno.
     */
    public static int rdma_migrate_id(MemorySegment callState, MemorySegment id, MemorySegment channel) {
        try {
            return (int) RdmaMigrateId.HANDLE.invokeExact(callState, id, channel);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_migrate_id", t);
        }
    }
}
