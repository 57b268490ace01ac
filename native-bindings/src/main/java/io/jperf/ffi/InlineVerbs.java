package io.jperf.ffi;

import io.jperf.ffi.generated.ibv_context;
import io.jperf.ffi.generated.ibv_context_ops;
import io.jperf.ffi.generated.ibv_cq;
import io.jperf.ffi.generated.ibv_qp;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The verbs data path: {@code ibv_post_send}, {@code ibv_post_recv}, {@code ibv_poll_cq} and
 * {@code ibv_req_notify_cq}.
 *
 * <p>In verbs.h these are {@code static inline} functions, so libibverbs exports no symbol for
 * them and jextract generates nothing. Each one calls a function pointer of the provider
 * (rxe, mlx5, ...) stored in {@code struct ibv_context_ops}: for example {@code ibv_poll_cq(cq,
 * n, wc)} is {@code cq->context->ops.poll_cq(cq, n, wc)}. This class does the same in two steps:
 * read the pointer once when a QP/CQ is created ({@link #postSendFn}, {@link #pollCqFn}, ...),
 * then call through it as often as needed ({@link #postSend}, {@link #pollCq}, ...).
 *
 * <p>Each call method uses one {@code static final} downcall handle without a fixed address (the
 * function pointer is its first argument), so the JIT sees a constant handle and inlines the
 * call; nothing is allocated and no exception is wrapped on that path. The hot loops go one step
 * further: {@link #bindPostSend}, {@link #bindPostRecv} and {@link #bindPollCq} bind a pointer once
 * into a {@link PostCall} / {@link PollCall} whose downcall has the address folded in, so a call
 * re-checks nothing about the pointer (see {@code BoundCalls}). The handles are linked
 * with {@link Linker.Option#critical(boolean) critical(false)}: no thread-state transition,
 * only native (off-heap) segments. That is right for these calls, which never block and never
 * call back into Java. Consequences for callers:
 * <ul>
 *   <li>the function pointer must point at native code: an {@link Linker#upcallStub upcall
 *       stub} aborts the JVM ("wrong thread state for upcall"), so a Java fake provider cannot
 *       be called through this class (test with a C stub instead);</li>
 *   <li>pass native segments only; a heap segment throws {@link IllegalArgumentException};</li>
 *   <li>a GC safepoint waits while a call is in progress, which is fine for calls that return
 *       in microseconds.</li>
 * </ul>
 *
 * <p>Threading: the class is stateless and thread-safe. Whether two threads may post to the
 * same QP or poll the same CQ concurrently is up to the provider (rdma-core providers lock
 * internally); jperf confines each QP and CQ to one thread. Lifecycle: the QP/CQ, every work
 * request, SGE list and completion array must stay allocated for the duration of the call (and,
 * for posted buffers, until their completion); this class holds no references to them (the bound
 * calls are cached for the life of the process, one per function address).
 */
@SuppressWarnings("restricted")
public final class InlineVerbs {

    private static final long QP_SIZE = ibv_qp.layout().byteSize();
    private static final long QP_CONTEXT = ibv_qp.context$offset();
    private static final long CQ_SIZE = ibv_cq.layout().byteSize();
    private static final long CQ_CONTEXT = ibv_cq.context$offset();
    private static final long CONTEXT_SIZE = ibv_context.layout().byteSize();
    private static final long OPS = ibv_context.ops$offset();
    private static final long POST_SEND_FN = OPS + ibv_context_ops.post_send$offset();
    private static final long POST_RECV_FN = OPS + ibv_context_ops.post_recv$offset();
    private static final long POLL_CQ_FN = OPS + ibv_context_ops.poll_cq$offset();
    private static final long REQ_NOTIFY_CQ_FN = OPS + ibv_context_ops.req_notify_cq$offset();

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(false);

    /** {@code int (*post_send)(struct ibv_qp *, struct ibv_send_wr *, struct ibv_send_wr **)}. */
    private static final MethodHandle POST_SEND = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS), CRITICAL);
    /** {@code int (*post_recv)(struct ibv_qp *, struct ibv_recv_wr *, struct ibv_recv_wr **)}. */
    private static final MethodHandle POST_RECV = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS), CRITICAL);
    /** {@code int (*poll_cq)(struct ibv_cq *, int, struct ibv_wc *)}. */
    private static final MethodHandle POLL_CQ = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.ADDRESS), CRITICAL);
    /**
     * {@code post_send} and {@code poll_cq} with the object pointers passed as raw addresses: a
     * {@code MemorySegment} argument costs a scope check and an acquire/release around every call,
     * which is a measurable share of a call that takes a few nanoseconds. Pointers and 64-bit
     * integers travel in the same registers in the 64-bit ABIs jperf supports (x86_64, aarch64).
     */
    private static final MethodHandle POST_SEND_RAW = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CRITICAL);
    /** {@code post_recv} with raw addresses, as {@link #POST_SEND_RAW}. */
    private static final MethodHandle POST_RECV_RAW = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CRITICAL);
    private static final MethodHandle POLL_CQ_RAW = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG), CRITICAL);
    /** {@code int (*req_notify_cq)(struct ibv_cq *, int)}. */
    private static final MethodHandle REQ_NOTIFY_CQ = LINKER.downcallHandle(FunctionDescriptor.of(
            ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CRITICAL);

    private InlineVerbs() {
    }

    /**
     * A provider's {@code post_send} or {@code post_recv} bound to its address ({@link #bindPostSend},
     * {@link #bindPostRecv}): {@code fn(qp, wr, badWr)} with raw addresses. The data path's way to post:
     * the bound downcall is a JIT constant, so a call costs no check of the function pointer. Stateless
     * and thread-safe; the caller guarantees that the QP, the work requests and {@code badWr} stay
     * allocated for the call.
     */
    public interface PostCall {
        /** @return 0, or the errno the provider returned */
        int invoke(long qp, long wr, long badWr);
    }

    /**
     * A provider's {@code poll_cq} bound to its address ({@link #bindPollCq}): {@code fn(cq, numEntries,
     * wcArray)} with raw addresses, as {@link PostCall}. The caller guarantees that the CQ and the
     * completion array stay allocated for the call.
     */
    public interface PollCall {
        /** @return the number of completions written (0 if none), or negative on error */
        int invoke(long cq, int numEntries, long wcArray);
    }

    /**
     * {@code fn} (from {@link #postSendFn}) bound as a {@link PostCall}. Defines a small class the
     * first time an address is seen, then returns the same instance for it; call it once per QP or
     * loop, not per post.
     */
    public static PostCall bindPostSend(MemorySegment fn) {
        return BoundCalls.post("post_send", POST_SEND_RAW, requireNonNull(fn, "post_send"));
    }

    /** {@code fn} (from {@link #postRecvFn}) bound as a {@link PostCall}; see {@link #bindPostSend}. */
    public static PostCall bindPostRecv(MemorySegment fn) {
        return BoundCalls.post("post_recv", POST_RECV_RAW, requireNonNull(fn, "post_recv"));
    }

    /** {@code fn} (from {@link #pollCqFn}) bound as a {@link PollCall}; see {@link #bindPostSend}. */
    public static PollCall bindPollCq(MemorySegment fn) {
        return BoundCalls.poll("poll_cq", POLL_CQ_RAW, requireNonNull(fn, "poll_cq"));
    }

    /**
     * @param qp a {@code struct ibv_qp *} from {@code ibv_create_qp}/{@code rdma_create_qp};
     *     may be a zero-length segment
     * @return {@code qp->context->ops.post_send}
     * @throws IllegalArgumentException if {@code qp} or its context is NULL
     * @throws IllegalStateException if the provider left the pointer NULL
     */
    public static MemorySegment postSendFn(MemorySegment qp) {
        return opsPointer(qpContext(qp), POST_SEND_FN, "post_send");
    }

    /** @return {@code qp->context->ops.post_recv}; see {@link #postSendFn}. */
    public static MemorySegment postRecvFn(MemorySegment qp) {
        return opsPointer(qpContext(qp), POST_RECV_FN, "post_recv");
    }

    /**
     * @param cq a {@code struct ibv_cq *} from {@code ibv_create_cq}; may be zero-length
     * @return {@code cq->context->ops.poll_cq}
     * @throws IllegalArgumentException if {@code cq} or its context is NULL
     * @throws IllegalStateException if the provider left the pointer NULL
     */
    public static MemorySegment pollCqFn(MemorySegment cq) {
        return opsPointer(cqContext(cq), POLL_CQ_FN, "poll_cq");
    }

    /** @return {@code cq->context->ops.req_notify_cq}; see {@link #pollCqFn}. */
    public static MemorySegment reqNotifyCqFn(MemorySegment cq) {
        return opsPointer(cqContext(cq), REQ_NOTIFY_CQ_FN, "req_notify_cq");
    }

    /**
     * {@code ibv_post_send(qp, wr, badWr)}.
     *
     * @param fn from {@link #postSendFn} for this QP
     * @param badWr a {@code struct ibv_send_wr **} receiving the first failed request
     * @return 0, or an errno value (the provider returns it; errno itself is not used)
     */
    public static int postSend(MemorySegment fn, MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        try {
            return (int) POST_SEND.invokeExact(fn, qp, wr, badWr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("post_send", t);
        }
    }

    /**
     * {@link #postSend} for the data path, with raw addresses: the caller guarantees that the QP,
     * the work requests and {@code badWr} stay allocated for the call (their owner outlives the loop).
     */
    public static int postSendRaw(MemorySegment fn, long qp, long wr, long badWr) {
        try {
            return (int) POST_SEND_RAW.invokeExact(fn, qp, wr, badWr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("post_send", t);
        }
    }

    /**
     * {@link #postRecv} for the data path, with raw addresses: the caller guarantees that the QP,
     * the receive work requests and {@code badWr} stay allocated for the call, and the receive
     * buffers until the request completes.
     */
    public static int postRecvRaw(MemorySegment fn, long qp, long wr, long badWr) {
        try {
            return (int) POST_RECV_RAW.invokeExact(fn, qp, wr, badWr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("post_recv", t);
        }
    }

    /**
     * {@link #pollCq} for the data path, with raw addresses: the caller guarantees that the CQ and
     * the completion array stay allocated for the call.
     */
    public static int pollCqRaw(MemorySegment fn, long cq, int numEntries, long wcArray) {
        try {
            return (int) POLL_CQ_RAW.invokeExact(fn, cq, numEntries, wcArray);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("poll_cq", t);
        }
    }

    /**
     * {@code ibv_post_recv(qp, wr, badWr)}.
     *
     * @param fn from {@link #postRecvFn} for this QP
     * @return 0, or an errno value
     */
    public static int postRecv(MemorySegment fn, MemorySegment qp, MemorySegment wr, MemorySegment badWr) {
        try {
            return (int) POST_RECV.invokeExact(fn, qp, wr, badWr);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("post_recv", t);
        }
    }

    /**
     * {@code ibv_poll_cq(cq, numEntries, wcArray)}.
     *
     * @param fn from {@link #pollCqFn} for this CQ
     * @param wcArray room for {@code numEntries} {@code struct ibv_wc} (48 bytes each on x86_64)
     * @return the number of completions written (0 if none), or negative on error
     */
    public static int pollCq(MemorySegment fn, MemorySegment cq, int numEntries, MemorySegment wcArray) {
        try {
            return (int) POLL_CQ.invokeExact(fn, cq, numEntries, wcArray);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("poll_cq", t);
        }
    }

    /**
     * {@code ibv_req_notify_cq(cq, solicitedOnly)}: arm the CQ for one completion event on its
     * completion channel.
     *
     * @param fn from {@link #reqNotifyCqFn} for this CQ
     * @return 0, or an errno value
     */
    public static int reqNotifyCq(MemorySegment fn, MemorySegment cq, int solicitedOnly) {
        try {
            return (int) REQ_NOTIFY_CQ.invokeExact(fn, cq, solicitedOnly);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError("req_notify_cq", t);
        }
    }

    private static MemorySegment qpContext(MemorySegment qp) {
        requireNonNull(qp, "qp");
        return requireNonNull(qp.reinterpret(QP_SIZE).get(ValueLayout.ADDRESS, QP_CONTEXT), "qp->context");
    }

    private static MemorySegment cqContext(MemorySegment cq) {
        requireNonNull(cq, "cq");
        return requireNonNull(cq.reinterpret(CQ_SIZE).get(ValueLayout.ADDRESS, CQ_CONTEXT), "cq->context");
    }

    private static MemorySegment opsPointer(MemorySegment context, long offset, String name) {
        MemorySegment fn = context.reinterpret(CONTEXT_SIZE).get(ValueLayout.ADDRESS, offset);
        if (fn.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the verbs provider has no ops." + name + " (NULL function pointer)");
        }
        return fn;
    }

    private static MemorySegment requireNonNull(MemorySegment pointer, String what) {
        if (pointer == null || pointer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(what + " is NULL");
        }
        return pointer;
    }
}
