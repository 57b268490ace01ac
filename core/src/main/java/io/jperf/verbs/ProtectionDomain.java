package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A protection domain ({@code struct ibv_pd}): groups memory regions and queue pairs that
 * may be used together. Child of a {@link Context}; parent of {@link MemoryRegion}s and
 * {@link QueuePair}s.
 */
public final class ProtectionDomain extends NativeResource {
    private final Context context;
    private final MemorySegment handle;

    private ProtectionDomain(Context context, MemorySegment handle) {
        super(context);
        this.context = context;
        this.handle = handle;
    }

    static ProtectionDomain allocate(Context context) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment pd = ErrnoCalls.ibv_alloc_pd(state, context.handle());
            if (pd.equals(MemorySegment.NULL)) {
                throw RdmaException.of("ibv_alloc_pd(" + context.deviceName() + ")", ErrnoCalls.errno(state));
            }
            return new ProtectionDomain(context, pd);
        }
    }

    public Context context() {
        return context;
    }

    /** The {@code struct ibv_pd *}, for engines; valid until {@link #close()}. */
    public MemorySegment handle() {
        ensureOpen();
        return handle;
    }

    /**
     * Registers native memory the caller owns. The region keeps {@code memory} reachable until it
     * is closed; the caller must keep the memory's arena open at least that long.
     */
    public MemoryRegion register(MemorySegment memory, Set<Access> access) {
        ensureOpen();
        return MemoryRegion.register(this, memory, null, access);
    }

    /**
     * Allocates {@code size} bytes of zeroed native memory aligned to {@code alignment} and registers
     * them; the memory belongs to the region and is freed after it is deregistered.
     */
    public MemoryRegion allocateAndRegister(long size, long alignment, Set<Access> access) {
        ensureOpen();
        Arena arena = Arena.ofShared();
        try {
            return MemoryRegion.register(this, arena.allocate(size, alignment), arena, access);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Like {@link #allocateAndRegister}, with the memory from huge pages ({@link HugePages}, perftest's
     * {@code --use_hugepages}): {@code size} bytes are registered, the mapping (rounded up to whole huge pages)
     * belongs to the region and is unmapped after it is deregistered.
     *
     * @throws RdmaException naming mmap, its errno and a hint when no huge pages are free
     */
    public MemoryRegion allocateHugePagesAndRegister(long size, Set<Access> access) {
        ensureOpen();
        Arena arena = Arena.ofShared();
        try {
            return MemoryRegion.register(this, HugePages.map(size, arena).asSlice(0, size), arena, access);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Creates a queue pair in the RESET state. */
    public QueuePair createQueuePair(QpType type, CompletionQueue sendCq, CompletionQueue recvCq, QpCapabilities caps) {
        ensureOpen();
        return QueuePair.create(this, type, sendCq, recvCq, caps);
    }

    @Override
    protected void destroy() {
        Calls.check("ibv_dealloc_pd(" + context.deviceName() + ")", rdma_h.ibv_dealloc_pd(handle));
    }

    @Override
    protected String describe() {
        return "ProtectionDomain on " + context.deviceName();
    }
}
