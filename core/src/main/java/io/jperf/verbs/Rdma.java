package io.jperf.verbs;

import io.jperf.ffi.ErrnoCalls;
import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.RdmaLibraries;
import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Entry point: lists RDMA devices and opens them.
 *
 * <pre>{@code
 * try (Context ctx = Rdma.open("rxe0");
 *      ProtectionDomain pd = ctx.allocateProtectionDomain()) {
 *     ...
 * }
 * }</pre>
 *
 * Stateless and thread-safe.
 */
public final class Rdma {
    private Rdma() {
    }

    /**
     * Snapshots of every RDMA device: identity, ports and valid GID entries. Opens each device
     * briefly. An empty list means the kernel supports RDMA but has no device registered.
     *
     * @throws RdmaUnavailableException when the libraries are missing or the kernel has no RDMA
     * @throws RdmaException            when a device cannot be opened or queried
     */
    public static List<DeviceInfo> devices() {
        List<DeviceInfo> result = new ArrayList<>();
        withDeviceList((name, device) -> {
            try (Context ctx = Context.open(name, device)) {
                result.add(ctx.query());
            }
            return false;
        });
        return List.copyOf(result);
    }

    /** The names of the RDMA devices here, in the order libibverbs lists them. */
    public static List<String> deviceNames() {
        List<String> names = new ArrayList<>();
        withDeviceList((name, device) -> {
            names.add(name);
            return false;
        });
        return List.copyOf(names);
    }

    /**
     * Opens a device by name, or the first device when {@code name} is null (as perftest does).
     *
     * @throws RdmaUnavailableException when there is no such device (the message lists those there are)
     */
    public static Context open(String name) {
        Context[] opened = new Context[1];
        List<String> seen = new ArrayList<>();
        withDeviceList((devName, device) -> {
            seen.add(devName);
            if (name == null || name.equals(devName)) {
                opened[0] = Context.open(devName, device);
                return true;
            }
            return false;
        });
        if (opened[0] == null) {
            throw new RdmaUnavailableException(seen.isEmpty()
                    ? "no RDMA device found. Hint: " + Hints.noRdmaHint()
                    : "no RDMA device named '" + name + "'; devices here: " + String.join(", ", seen));
        }
        return opened[0];
    }

    private interface DeviceVisitor {
        /** Returns true to stop. */
        boolean visit(String name, MemorySegment device);
    }

    private static void withDeviceList(DeviceVisitor visitor) {
        ensureLibraries();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment list = ErrnoCalls.ibv_get_device_list(state, count);
            if (list.equals(MemorySegment.NULL)) {
                int errno = ErrnoCalls.errno(state);
                throw new RdmaUnavailableException(
                        RdmaException.of("ibv_get_device_list", errno, Hints.noRdmaHint()).getMessage());
            }
            try {
                int n = count.get(ValueLayout.JAVA_INT, 0);
                MemorySegment devices = NativeMemory.ofSize(list, ValueLayout.ADDRESS.byteSize() * n);
                for (int i = 0; i < n; i++) {
                    MemorySegment device = devices.getAtIndex(ValueLayout.ADDRESS, i);
                    String name = NativeMemory.cString(rdma_h.ibv_get_device_name(device), 256);
                    if (visitor.visit(name, device)) {
                        return;
                    }
                }
            } finally {
                rdma_h.ibv_free_device_list(list);
            }
        }
    }

    static void ensureLibraries() {
        if (!RdmaLibraries.isAvailable()) {
            throw new RdmaUnavailableException(RdmaLibraries.unavailabilityCause().getMessage(), RdmaLibraries.unavailabilityCause());
        }
    }
}
