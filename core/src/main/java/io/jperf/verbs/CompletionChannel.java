package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A completion event channel ({@code struct ibv_comp_channel}): a file descriptor that
 * becomes readable when an armed CQ gets a completion. Child of a {@link Context}.
 */
public final class CompletionChannel extends NativeResource {
    private final Context context;
    private final MemorySegment handle;

    private CompletionChannel(Context context, MemorySegment handle) {
        super(context);
        this.context = context;
        this.handle = handle;
    }

    static CompletionChannel create(Context context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment ch = ErrnoCalls.ibv_create_comp_channel(state, context.handle());
            if (ch.equals(MemorySegment.NULL)) {
                throw RdmaException.of("ibv_create_comp_channel(" + context.deviceName() + ")", ErrnoCalls.errno(state));
            }
            return new CompletionChannel(context, ch);
        }
    }

    /** The {@code struct ibv_comp_channel *}; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    @Override
    protected void destroy() {
        Calls.check("ibv_destroy_comp_channel", rdma_h.ibv_destroy_comp_channel(handle));
    }

    @Override
    protected String describe() {
        return "CompletionChannel on " + context.deviceName();
    }
}
