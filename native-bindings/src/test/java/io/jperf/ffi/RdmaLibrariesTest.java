package io.jperf.ffi;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.ffi.generated.rdma_h;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;

class RdmaLibrariesTest {

    @Test
    void librariesLoadAndTheGeneratedHeaderClassInitialises() throws Exception {
        assertTrue(RdmaLibraries.isAvailable(), () -> "unavailable: " + RdmaLibraries.unavailabilityCause());
        assertNull(RdmaLibraries.unavailabilityCause());
        assertDoesNotThrow(RdmaLibraries::ensureAvailable);

        Class<?> header = Class.forName(RdmaLibraries.GENERATED_HEADER_CLASS, true, getClass().getClassLoader());
        assertEquals(rdma_h.class, header);
        assertEquals(3, rdma_h.IBV_QPS_RTS());
        assertNotEquals(MemorySegment.NULL, rdma_h.ibv_get_device_list$address());
        assertNotEquals(MemorySegment.NULL, rdma_h.rdma_create_event_channel$address());
    }

    @Test
    void missingLibraryNamesItAndThePackagesToInstall() {
        RdmaUnavailableException e = RdmaLibraries.probe("libjperf-missing.so.1", RdmaLibraries.RDMACM, null);
        assertNotNull(e);
        assertTrue(e.getMessage().startsWith("libjperf-missing.so.1 not found: install the Debian packages"
                + " libibverbs1 librdmacm1 ibverbs-providers"), e.getMessage());

        RdmaUnavailableException cm = RdmaLibraries.probe(RdmaLibraries.IBVERBS, "librdmacm-missing.so.1", null);
        assertNotNull(cm);
        assertTrue(cm.getMessage().startsWith("librdmacm-missing.so.1 not found"), cm.getMessage());
    }

    @Test
    void wrongLibraryIsReportedByTheMissingSymbol() {
        RdmaUnavailableException e = RdmaLibraries.probe("libc.so.6", RdmaLibraries.RDMACM, null);
        assertNotNull(e);
        assertTrue(e.getMessage().contains("has no symbol ibv_get_device_list"), e.getMessage());
    }

    @Test
    void brokenGeneratedClassIsReported() {
        RdmaUnavailableException e = RdmaLibraries.probe(RdmaLibraries.IBVERBS, RdmaLibraries.RDMACM,
                "io.jperf.ffi.generated.does_not_exist");
        assertNotNull(e);
        assertTrue(e.getMessage().contains("failed to initialise"), e.getMessage());
    }

    @Test
    void nativeAccessIsEnabledUnderSurefire() {
        // surefire passes --enable-native-access=ALL-UNNAMED (parent pom); without it this
        // returns the message naming the flag.
        assertEquals("", RdmaLibraries.nativeAccessProblem().orElse(""));
    }
}
