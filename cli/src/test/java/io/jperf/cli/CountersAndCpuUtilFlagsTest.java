package io.jperf.cli;

import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's --cpu_util (bandwidth commands) and -W/--report-counters (every test command) on the command line. */
class CountersAndCpuUtilFlagsTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-bw -D 4 --cpu_util 10.0.0.2", "lab-a");
    private static final BandwidthResult ROW = new BandwidthResult(65536, 5000, 0, 900.0, 0.0144,
            BandwidthResult.Unit.MIB_PER_SEC);

    private static Object command(String... args) {
        CommandLine root = JperfCommand.commandLineFor(args);
        return root.parseArgs(args).subcommand().commandSpec().userObject();
    }

    @Test
    void cpuUtilReachesEveryBandwidthCommandsFlags() {
        assertTrue(((WriteBwCommand) command("write-bw", "--cpu_util", "-D", "4", "10.0.0.2")).reporting.cpuUtil);
        assertTrue(((ReadBwCommand) command("read-bw", "--cpu-util", "10.0.0.2")).reporting.cpuUtil);
        assertTrue(((AtomicBwCommand) command("atomic-bw", "--cpu_util", "10.0.0.2")).reporting.cpuUtil);
        assertTrue(((SendBwCommand) command("send-bw", "--cpu_util", "10.0.0.2")).reporting.cpuUtil);
        assertFalse(((WriteBwCommand) command("write-bw", "10.0.0.2")).reporting.cpuUtil);
    }

    @Test
    void reportCountersReachesEveryTestCommandsOptions() {
        for (String cmd : List.of("write-bw", "write-lat", "read-bw", "read-lat", "atomic-bw", "atomic-lat",
                "send-bw", "send-lat")) {
            for (String flag : List.of("-W", "--report-counters", "--report_counters")) {
                Object c = command(cmd, flag, "counters/port_xmit_data,hw_counters/out_of_buffer", "10.0.0.2");
                TestOptionsMixin common = c instanceof WriteBwCommand w ? w.common : c instanceof WriteLatCommand w
                        ? w.common : c instanceof ReadBwCommand r ? r.common : c instanceof ReadLatCommand r ? r.common
                        : c instanceof AtomicBwCommand a ? a.common : c instanceof AtomicLatCommand a ? a.common
                        : c instanceof SendBwCommand s ? s.common : ((SendLatCommand) c).common;
                assertEquals("counters/port_xmit_data,hw_counters/out_of_buffer", common.reportCounters, cmd + flag);
            }
        }
    }

    @Test
    void aBadCounterIsAUsageErrorBeforeTheTestStarts() {
        CliRunner r = CliRunner.run("write-bw", "-d", "nodev9", "-W", "counters/no_such_counter", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("counters/no_such_counter: no such counter (/sys/class/infiniband/nodev9/ports/1/"
                + "counters/no_such_counter does not exist"), r.err());
    }

    @Test
    void cpuUtilIsRefusedByTheLatencyCommandsForNow() {
        CliRunner r = CliRunner.run("write-lat", "--cpu_util", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("--cpu_util"), r.err());
    }

    @Test
    void withoutDurationCpuUtilWarnsAsPerftest() {
        BwReportFlags flags = new BwReportFlags();
        flags.cpuUtil = true;
        TestOptions iterations = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").build();
        assertTrue(PerfTestCommand.flagNotes(iterations, null, flags, false).getFirst()
                .contains("works only with a timed run (-D)"));
        TestOptions timed = TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").durationSeconds(4).build();
        assertTrue(PerfTestCommand.flagNotes(timed, null, flags, false).isEmpty());
    }

    private static StringWriter out;

    private static PerftestPrinter printer(TestOptions options) {
        out = new StringWriter();
        return new PerftestPrinter(options, RUN, new PrintWriter(out), new PrintWriter(new StringWriter()));
    }

    private static TestOptions timed(OutputMode mode) {
        return TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").durationSeconds(4).outputMode(mode)
                .build();
    }

    /** perftest: "MsgRate[Mpps]    CPU_Util[%]" as the title, the row then "\t    %-3.2f". */
    @Test
    void theCpuColumnComesFromProcStatAtTheMeasurementsStartAndItsRow(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "cpu  1000 5 50 9000 0 0 0 0 0 0\n");
        PerftestPrinter p = printer(timed(OutputMode.NONE)).cpuUtil(stat);
        p.measuring(65536);
        Files.writeString(stat, "cpu  1100 5 80 9300 0 0 0 0 0 0\n");
        p.bandwidth(ROW);
        List<String> lines = out.toString().lines().toList();
        assertTrue(lines.get(1).endsWith("MsgRate[Mpps]    CPU_Util[%]"), out.toString());
        assertTrue(lines.get(2).endsWith("\t    25.00"), out.toString());
        assertTrue(lines.get(2).startsWith(" 65536"), out.toString());
        assertEquals(25.0, p.cpuUtilPercent(), 1e-9); // --out_json's CPU_util
    }

    @Test
    void noCpuColumnWithoutTheFlagOrWithOutput(@TempDir Path dir) throws IOException {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "cpu  1000 5 50 9000 0 0 0 0 0 0\n");
        printer(timed(OutputMode.NONE)).bandwidth(ROW);
        assertFalse(out.toString().contains("CPU_Util"), out.toString());
        assertTrue(out.toString().lines().toList().get(2).endsWith("0.014400"), out.toString());
        PerftestPrinter p = printer(timed(OutputMode.BANDWIDTH)).cpuUtil(stat);
        p.measuring(65536);
        p.bandwidth(ROW);
        assertEquals("900.000000\n", out.toString());
        assertEquals(0.0, p.cpuUtilPercent()); // no tick passed between the two readings
    }

    @Test
    void countersFollowEachRow(@TempDir Path root) throws IOException {
        Path port = root.resolve("rxe0/ports/1/counters");
        Files.createDirectories(port);
        Files.writeString(port.resolve("port_xmit_packets"), "10\n");
        SysfsCounters counters = SysfsCounters.open(root, "rxe0", 1, "counters/port_xmit_packets");
        Files.writeString(port.resolve("port_xmit_packets"), "15\n"); // the warm-up: not counted
        PerftestPrinter p = printer(TestOptions.builder(TestKind.WRITE_LAT).serverHost("10.0.0.2").build())
                .counters(counters);
        p.measuring(2);
        Files.writeString(port.resolve("port_xmit_packets"), "1015\n");
        p.latency(new LatencyResult(2, 1000, 4, 9, 5, 5.2, 1.1, 9, 9));
        assertTrue(out.toString().endsWith("\n\tcounters/port_xmit_packets=1000\n\n"), out.toString());
    }
}
