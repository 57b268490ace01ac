package io.jperf.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's -W/--report-counters on a sysfs tree of a temporary directory. */
class SysfsCountersTest {
    @TempDir
    Path root;
    private Path port;

    @BeforeEach
    void tree() throws IOException {
        port = root.resolve("mlx5_0/ports/1");
        Files.createDirectories(port.resolve("counters"));
        Files.createDirectories(port.resolve("hw_counters"));
        Files.writeString(port.resolve("counters/port_xmit_data"), "1000\n");
        Files.writeString(port.resolve("hw_counters/out_of_buffer"), "7\n");
    }

    @Test
    void printsEachChangeSinceTheMarkAsPerftest() throws IOException {
        SysfsCounters c = SysfsCounters.open(root, "mlx5_0", 1, "counters/port_xmit_data,hw_counters/out_of_buffer");
        Files.writeString(port.resolve("counters/port_xmit_data"), "1500\n");
        assertEquals("\tcounters/port_xmit_data=500\n\thw_counters/out_of_buffer=0\n\n", c.differences());
        Files.writeString(port.resolve("hw_counters/out_of_buffer"), "9\n");
        c.mark();
        Files.writeString(port.resolve("hw_counters/out_of_buffer"), "12\n");
        assertEquals("\tcounters/port_xmit_data=0\n\thw_counters/out_of_buffer=3\n\n", c.differences());
    }

    @Test
    void aMissingCounterIsOneLineNamingItsFile() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "mlx5_0", 1, "counters/port_xmit_data,counters/nope"));
        assertTrue(e.getMessage().startsWith("-W/--report-counters counters/nope: no such counter ("
                + port.resolve("counters/nope")), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }

    @Test
    void anotherPortOrDeviceIsAnotherDirectory() {
        assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "mlx5_0", 2, "counters/port_xmit_data"));
        assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "rxe0", 1, "counters/port_xmit_data"));
    }

    @Test
    void namesOutsideThePortAndEmptyNamesAreRefused() throws IOException {
        Files.writeString(root.resolve("secret"), "1\n");
        assertThrows(IllegalArgumentException.class, () -> SysfsCounters.open(root, "mlx5_0", 1, "../../../secret"));
        assertThrows(IllegalArgumentException.class, () -> SysfsCounters.open(root, "mlx5_0", 1, "/etc/hostname"));
        assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "mlx5_0", 1, "counters/port_xmit_data,"));
        IllegalArgumentException dir = assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "mlx5_0", 1, "counters"));
        assertTrue(dir.getMessage().contains("cannot read"), dir.getMessage());
    }

    @Test
    void aFileWithoutANumberIsRefused() throws IOException {
        Files.writeString(port.resolve("counters/port_xmit_data"), "N/A (no PMA)\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SysfsCounters.open(root, "mlx5_0", 1, "counters/port_xmit_data"));
        assertTrue(e.getMessage().contains("holds no counter value"), e.getMessage());
    }

    /** Without -d, the counters are the device the test opens: libibverbs' first. */
    @Test
    void theCommandReadsTheFirstDeviceWithoutDAndRefusesABadNameWithAUsageError() {
        SysfsCounters c = PerfTestCommand.openCounters(root, null, 1, "counters/port_xmit_data", () -> "mlx5_0");
        assertEquals(java.util.List.of("counters/port_xmit_data"), c.names());
        assertNull(PerfTestCommand.openCounters(root, null, 1, "counters/port_xmit_data", () -> null));
        UsageException e = assertThrows(UsageException.class,
                () -> PerfTestCommand.openCounters(root, "mlx5_0", 1, "counters/nope", () -> "rxe0"));
        assertTrue(e.getMessage().contains("counters/nope"), e.getMessage());
    }
}
