package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.ibv_mr;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * Registered memory ({@code struct ibv_mr}): pinned, with the local and remote keys the NIC
 * uses. The region holds its memory segment for as long as it is registered, so the memory
 * cannot be freed under the NIC; memory it allocated itself is freed right after
 * deregistration.
 */
public final class MemoryRegion extends NativeResource {
    private final ProtectionDomain pd;
    private final MemorySegment handle;
    private final MemorySegment memory;
    private final Arena ownedArena;
    private final int lkey;
    private final int rkey;

    private MemoryRegion(ProtectionDomain pd, MemorySegment handle, MemorySegment memory, Arena ownedArena) {
        super(pd);
        this.pd = pd;
        this.handle = handle;
        this.memory = memory;
        this.ownedArena = ownedArena;
        MemorySegment mr = NativeMemory.ofLayout(handle, ibv_mr.layout());
        this.lkey = ibv_mr.lkey(mr);
        this.rkey = ibv_mr.rkey(mr);
    }

    static MemoryRegion register(ProtectionDomain pd, MemorySegment memory, Arena ownedArena, Set<Access> access) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("only native memory can be registered (allocate it from an Arena)");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment mr = ErrnoCalls.ibv_reg_mr(state, pd.handle(), memory, memory.byteSize(), Access.mask(access));
            if (mr.equals(MemorySegment.NULL)) {
                throw RdmaException.of("ibv_reg_mr(" + memory.byteSize() + " bytes)", ErrnoCalls.errno(state));
            }
            return new MemoryRegion(pd, mr, memory, ownedArena);
        }
    }

    /** The registered memory. Do not use it after {@link #close()} when the region owns it. */
    public MemorySegment memory() {
        ensureOpen();
        return memory;
    }

    public long address() {
        return memory.address();
    }

    public long length() {
        return memory.byteSize();
    }

    public int lkey() {
        return lkey;
    }

    public int rkey() {
        return rkey;
    }

    @Override
    protected void destroy() {
        try {
            Calls.check("ibv_dereg_mr", rdma_h.ibv_dereg_mr(handle));
        } finally {
            if (ownedArena != null) {
                ownedArena.close();
            }
        }
    }

    @Override
    protected String describe() {
        return "MemoryRegion of " + memory.byteSize() + " bytes on " + pd.context().deviceName();
    }
}
