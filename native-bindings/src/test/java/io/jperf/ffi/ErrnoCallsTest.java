package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.ffi.generated.rdma_h;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Errno-capturing downcalls, exercised on the no-RDMA path this machine (and CI) has. */
class ErrnoCallsTest {

    private static final Path SYS_INFINIBAND = Path.of("/sys/class/infiniband");

    @BeforeAll
    static void librariesPresent() {
        RdmaLibraries.ensureAvailable();
    }

    private static boolean noRdmaDevices() throws IOException {
        if (!Files.isDirectory(SYS_INFINIBAND)) {
            return true;
        }
        try (Stream<Path> devices = Files.list(SYS_INFINIBAND)) {
            return devices.findAny().isEmpty();
        }
    }

    @Test
    void eachHandleMatchesItsMethodSignature() throws Exception {
        Set<String> helpers = Set.of("newCallState", "errno");
        int checked = 0;
        for (Method method : ErrnoCalls.class.getDeclaredMethods()) {
            if (!Modifier.isPublic(method.getModifiers()) || helpers.contains(method.getName())) {
                continue;
            }
            // ibv_get_device_list's handle is IbvGetDeviceList.HANDLE, linked when that holder initialises
            String holder = Arrays.stream(method.getName().split("_"))
                    .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1)).collect(Collectors.joining());
            Field field = Class.forName(ErrnoCalls.class.getName() + "$" + holder).getDeclaredField("HANDLE");
            field.setAccessible(true);
            MethodHandle handle = (MethodHandle) field.get(null);
            // captureCallState prepends the call-state segment, exactly like the method does.
            assertEquals(MethodType.methodType(method.getReturnType(), method.getParameterTypes()), handle.type(),
                    method.getName());
            assertEquals(MemorySegment.class, method.getParameterTypes()[0], method.getName() + " callState first");
            checked++;
        }
        assertEquals(23, checked, "errno-reporting calls wrapped");
    }

    /** ibv_get_device_list is linked from its own descriptor (not jextract's holder, see ErrnoCalls): the same one. */
    @Test
    void ibvGetDeviceListsDescriptorIsTheGeneratedOne() throws Exception {
        Field field = Class.forName(ErrnoCalls.class.getName() + "$IbvGetDeviceList").getDeclaredField("DESCRIPTOR");
        field.setAccessible(true);
        assertEquals(io.jperf.ffi.generated.rdma_h.ibv_get_device_list$descriptor(), field.get(null));
    }

    @Test
    void ibvGetDeviceListWithoutRdmaIsNullWithEnosysOrEmpty() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            assertEquals(0, ErrnoCalls.errno(state), "fresh call state");
            MemorySegment num = arena.allocate(ValueLayout.JAVA_INT);
            num.set(ValueLayout.JAVA_INT, 0, -1);

            MemorySegment list = ErrnoCalls.ibv_get_device_list(state, num);
            int errno = ErrnoCalls.errno(state);
            int count = num.get(ValueLayout.JAVA_INT, 0);
            try {
                if (noRdmaDevices()) {
                    if (list.equals(MemorySegment.NULL)) {
                        assertEquals(Errno.ENOSYS, errno, () -> "errno " + Errno.format(errno));
                    } else {
                        assertEquals(0, count, "a non-NULL list without devices must be empty");
                    }
                } else {
                    assertNotEquals(MemorySegment.NULL, list,
                            () -> SYS_INFINIBAND + " lists devices but ibv_get_device_list failed: " + Errno.format(errno));
                    assertTrue(count > 0, "device count " + count);
                }
            } finally {
                if (!list.equals(MemorySegment.NULL)) {
                    rdma_h.ibv_free_device_list(list);
                }
            }
        }
        assertEquals("ENOSYS", Errno.name(38));
        assertTrue(Errno.describe(38).toLowerCase(Locale.ROOT).contains("not implemented"), Errno.describe(38));
    }

    @Test
    void rdmaCreateEventChannelWithoutRdmaIsNullWithEnodev() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ErrnoCalls.newCallState(arena);
            MemorySegment channel = ErrnoCalls.rdma_create_event_channel(state);
            int errno = ErrnoCalls.errno(state);
            if (!Files.exists(SYS_INFINIBAND)) {
                assertEquals(MemorySegment.NULL, channel, "rdma_create_event_channel without RDMA");
                assertEquals(Errno.ENODEV, errno, () -> "errno " + Errno.format(errno));
            } else if (channel.equals(MemorySegment.NULL)) {
                assertNotEquals(0, errno, "NULL channel must come with an errno");
            } else {
                rdma_h.rdma_destroy_event_channel(channel);
            }
        }
    }
}
