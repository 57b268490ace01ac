package io.jperf.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's --cpu_util arithmetic on /proc/stat fixtures: user and idle of the first line, user / (user + idle). */
class CpuTimesTest {
    /* the first lines of a real /proc/stat: cpu user nice system idle iowait irq softirq steal guest guest_nice */
    private static final String BEFORE = "cpu  10132153 290696 3084719 46828483 16683 0 25195 0 0 0\n"
            + "cpu0 1393280 32966 572056 13343292 6130 0 17875 0 0 0\nintr 199292 0\n";
    private static final String AFTER = "cpu  10132453 290800 3090000 46829383 16690 0 25200 0 0 0\n"
            + "cpu0 1393300 32966 572056 13343292 6130 0 17875 0 0 0\nintr 199300 0\n";

    @Test
    void readsUserAndIdleOfTheFirstLineOnly(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, BEFORE);
        assertEquals(new CpuTimes(10132153, 46828483), CpuTimes.read(stat));
    }

    /** user +300 ticks, idle +900: 25 %; nice and system changed too, and perftest leaves them out. */
    @Test
    void utilizationIsUserOverUserPlusIdleOfTheDifferences(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, BEFORE);
        CpuTimes before = CpuTimes.read(stat);
        Files.writeString(stat, AFTER);
        CpuTimes after = CpuTimes.read(stat);
        assertEquals(25.0, CpuTimes.utilization(before, after), 1e-9);
        assertEquals("25.00", CpuTimes.format(CpuTimes.utilization(before, after)));
    }

    @Test
    void noTicksPassedIsZeroAsInPerftest() {
        CpuTimes t = new CpuTimes(5, 7);
        assertEquals(0.0, CpuTimes.utilization(t, t));
        assertEquals("0.00", CpuTimes.format(0));
    }

    @Test
    void aFileWithoutACpuLineIsAnErrorNamingTheFile(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "intr 1 2 3\n");
        IOException e = assertThrows(IOException.class, () -> CpuTimes.read(stat));
        assertTrue(e.getMessage().contains(stat.toString()), e.getMessage());
        assertThrows(IOException.class, () -> CpuTimes.read(dir.resolve("missing")));
        assertThrows(IllegalArgumentException.class, () -> CpuTimes.parse("cpu x 2 3 4"));
    }
}
