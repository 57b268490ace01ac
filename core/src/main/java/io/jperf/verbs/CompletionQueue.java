package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.InlineVerbs;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.ibv_cq;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A completion queue ({@code struct ibv_cq}). Child of a {@link Context} and of its {@link
 * CompletionChannel} when it has one; queue pairs using it are closed before it.
 *
 * <p>The data path polls through {@link #pollFunction()}, the provider's {@code poll_cq}
 * read once from {@code ibv_context_ops}, with {@link InlineVerbs#pollCq}.
 */
public final class CompletionQueue extends NativeResource {
    private final Context context;
    private final MemorySegment handle;
    private final MemorySegment pollFn;
    private final int depth;

    private CompletionQueue(Context context, CompletionChannel channel, MemorySegment handle) {
        super(context, channel);
        this.context = context;
        this.handle = handle;
        this.pollFn = InlineVerbs.pollCqFn(handle);
        this.depth = ibv_cq.cqe(NativeMemory.ofLayout(handle, ibv_cq.layout()));
    }

    static CompletionQueue create(Context context, int depth, CompletionChannel channel) {
        if (depth < 1) {
            throw new IllegalArgumentException("CQ depth must be >= 1, not " + depth);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment ch = channel == null ? MemorySegment.NULL : channel.handle();
            MemorySegment cq = ErrnoCalls.ibv_create_cq(state, context.handle(), depth, MemorySegment.NULL, ch, 0);
            if (cq.equals(MemorySegment.NULL)) {
                throw RdmaException.of("ibv_create_cq(" + context.deviceName() + ", " + depth + " entries)",
                        ErrnoCalls.errno(state));
            }
            return new CompletionQueue(context, channel, cq);
        }
    }

    /** The {@code struct ibv_cq *}, for engines; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /** The provider's {@code poll_cq} function pointer, for {@link InlineVerbs#pollCq}. */
    public MemorySegment pollFunction() {
        ensureOpen();
        return pollFn;
    }

    /** The number of entries the driver granted (at least what was asked). */
    public int depth() {
        return depth;
    }

    /**
     * Polls up to {@code max} completions into {@code wcArray} ({@code struct ibv_wc[max]}).
     * Returns the number polled, or a negative value on a polling error. Allocates nothing.
     */
    public int poll(MemorySegment wcArray, int max) {
        return InlineVerbs.pollCq(pollFn, handle, max, wcArray);
    }

    @Override
    protected void destroy() {
        Calls.check("ibv_destroy_cq(" + context.deviceName() + ")", rdma_h.ibv_destroy_cq(handle));
    }

    @Override
    protected String describe() {
        return "CompletionQueue on " + context.deviceName();
    }
}
