package io.jperf.ffi;

import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
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
 * <p>Lifecycle: call {@link RdmaLibraries#ensureAvailable()} first; the handles are created in
 * this class's static initialiser, which fails with an {@link ExceptionInInitializerError}
 * caused by {@link RdmaUnavailableException} if the libraries are missing. Threading: the
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

    // Package-private so a test can check each handle's type against its method's signature.
    static final MethodHandle IBV_GET_DEVICE_LIST =
            capturing(rdma_h.ibv_get_device_list$address(), rdma_h.ibv_get_device_list$descriptor());
    static final MethodHandle IBV_OPEN_DEVICE =
            capturing(rdma_h.ibv_open_device$address(), rdma_h.ibv_open_device$descriptor());
    static final MethodHandle IBV_ALLOC_PD =
            capturing(rdma_h.ibv_alloc_pd$address(), rdma_h.ibv_alloc_pd$descriptor());
    static final MethodHandle IBV_REG_MR =
            capturing(rdma_h.ibv_reg_mr$address(), rdma_h.ibv_reg_mr$descriptor());
    static final MethodHandle IBV_CREATE_COMP_CHANNEL =
            capturing(rdma_h.ibv_create_comp_channel$address(), rdma_h.ibv_create_comp_channel$descriptor());
    static final MethodHandle IBV_CREATE_CQ =
            capturing(rdma_h.ibv_create_cq$address(), rdma_h.ibv_create_cq$descriptor());
    static final MethodHandle IBV_CREATE_QP =
            capturing(rdma_h.ibv_create_qp$address(), rdma_h.ibv_create_qp$descriptor());
    static final MethodHandle IBV_GET_CQ_EVENT =
            capturing(rdma_h.ibv_get_cq_event$address(), rdma_h.ibv_get_cq_event$descriptor());
    static final MethodHandle IBV_GET_ASYNC_EVENT =
            capturing(rdma_h.ibv_get_async_event$address(), rdma_h.ibv_get_async_event$descriptor());
    static final MethodHandle RDMA_CREATE_EVENT_CHANNEL =
            capturing(rdma_h.rdma_create_event_channel$address(), rdma_h.rdma_create_event_channel$descriptor());
    static final MethodHandle RDMA_CREATE_ID =
            capturing(rdma_h.rdma_create_id$address(), rdma_h.rdma_create_id$descriptor());
    static final MethodHandle RDMA_BIND_ADDR =
            capturing(rdma_h.rdma_bind_addr$address(), rdma_h.rdma_bind_addr$descriptor());
    static final MethodHandle RDMA_RESOLVE_ADDR =
            capturing(rdma_h.rdma_resolve_addr$address(), rdma_h.rdma_resolve_addr$descriptor());
    static final MethodHandle RDMA_RESOLVE_ROUTE =
            capturing(rdma_h.rdma_resolve_route$address(), rdma_h.rdma_resolve_route$descriptor());
    static final MethodHandle RDMA_CREATE_QP =
            capturing(rdma_h.rdma_create_qp$address(), rdma_h.rdma_create_qp$descriptor());
    static final MethodHandle RDMA_CONNECT =
            capturing(rdma_h.rdma_connect$address(), rdma_h.rdma_connect$descriptor());
    static final MethodHandle RDMA_LISTEN =
            capturing(rdma_h.rdma_listen$address(), rdma_h.rdma_listen$descriptor());
    static final MethodHandle RDMA_ACCEPT =
            capturing(rdma_h.rdma_accept$address(), rdma_h.rdma_accept$descriptor());
    static final MethodHandle RDMA_REJECT =
            capturing(rdma_h.rdma_reject$address(), rdma_h.rdma_reject$descriptor());
    static final MethodHandle RDMA_DISCONNECT =
            capturing(rdma_h.rdma_disconnect$address(), rdma_h.rdma_disconnect$descriptor());
    static final MethodHandle RDMA_GET_CM_EVENT =
            capturing(rdma_h.rdma_get_cm_event$address(), rdma_h.rdma_get_cm_event$descriptor());
    static final MethodHandle RDMA_SET_OPTION =
            capturing(rdma_h.rdma_set_option$address(), rdma_h.rdma_set_option$descriptor());
    static final MethodHandle RDMA_MIGRATE_ID =
            capturing(rdma_h.rdma_migrate_id$address(), rdma_h.rdma_migrate_id$descriptor());

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
            return (MemorySegment) IBV_GET_DEVICE_LIST.invokeExact(callState, num_devices);
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
            return (MemorySegment) IBV_OPEN_DEVICE.invokeExact(callState, device);
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
            return (MemorySegment) IBV_ALLOC_PD.invokeExact(callState, context);
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
            return (MemorySegment) IBV_REG_MR.invokeExact(callState, pd, addr, length, access);
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
            return (MemorySegment) IBV_CREATE_COMP_CHANNEL.invokeExact(callState, context);
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
            return (MemorySegment) IBV_CREATE_CQ.invokeExact(callState, context, cqe, cq_context, channel, comp_vector);
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
            return (MemorySegment) IBV_CREATE_QP.invokeExact(callState, pd, qp_init_attr);
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
            return (int) IBV_GET_CQ_EVENT.invokeExact(callState, channel, cq, cq_context);
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
            return (int) IBV_GET_ASYNC_EVENT.invokeExact(callState, context, event);
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
            return (MemorySegment) RDMA_CREATE_EVENT_CHANNEL.invokeExact(callState);
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
            return (int) RDMA_CREATE_ID.invokeExact(callState, channel, id, context, ps);
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
            return (int) RDMA_BIND_ADDR.invokeExact(callState, id, addr);
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
            return (int) RDMA_RESOLVE_ADDR.invokeExact(callState, id, src_addr, dst_addr, timeout_ms);
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
            return (int) RDMA_RESOLVE_ROUTE.invokeExact(callState, id, timeout_ms);
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
            return (int) RDMA_CREATE_QP.invokeExact(callState, id, pd, qp_init_attr);
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
            return (int) RDMA_CONNECT.invokeExact(callState, id, conn_param);
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
            return (int) RDMA_LISTEN.invokeExact(callState, id, backlog);
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
            return (int) RDMA_ACCEPT.invokeExact(callState, id, conn_param);
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
            return (int) RDMA_REJECT.invokeExact(callState, id, private_data, private_data_len);
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
            return (int) RDMA_DISCONNECT.invokeExact(callState, id);
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
            return (int) RDMA_GET_CM_EVENT.invokeExact(callState, channel, event);
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
            return (int) RDMA_SET_OPTION.invokeExact(callState, id, level, optname, optval, optlen);
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
            return (int) RDMA_MIGRATE_ID.invokeExact(callState, id, channel);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("rdma_migrate_id", t);
        }
    }
}
