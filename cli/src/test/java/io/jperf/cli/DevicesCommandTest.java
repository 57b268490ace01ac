package io.jperf.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** {@code jperf devices} where the kernel has no RDMA (the machines CI runs on). */
class DevicesCommandTest {
    private static final boolean KERNEL_HAS_RDMA = Files.isDirectory(Path.of("/sys/class/infiniband"));

    @Test
    void withoutKernelRdmaItSaysWhyAndWhatToTryAndExitsThree() {
        assumeFalse(KERNEL_HAS_RDMA, "this kernel has RDMA; the lab tier covers listing real devices");
        CliRunner r = CliRunner.run("devices");

        assertEquals(ExitCodes.NO_RDMA, r.exitCode());
        assertEquals("", r.out());
        String err = r.err();
        assertTrue(err.startsWith("jperf: ibv_get_device_list failed: errno 38 ENOSYS (Function not implemented)."),
                err);
        assertTrue(err.contains("this kernel has no RDMA support"), err);
        assertTrue(err.contains("lab/rdma-lab"), "points to the lab: " + err);
        assertFalse(err.contains("\tat "), "no stack trace: " + err);
        assertEquals(1, err.strip().lines().count(), "one line: " + err);
    }

    @Test
    void jsonModeFailsTheSameWay() {
        assumeFalse(KERNEL_HAS_RDMA, "this kernel has RDMA; the lab tier covers listing real devices");
        CliRunner r = CliRunner.run("devices", "--json");
        assertEquals(ExitCodes.NO_RDMA, r.exitCode());
        assertTrue(r.err().contains("ENOSYS"), r.err());
    }
}
