package io.jperf.cli;

import io.jperf.engine.StopSignal;
import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.PerftestTextReport;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import sun.misc.Signal;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's --run_infinitely on jperf's command line: parsing, what it refuses, its end, and Ctrl-C. */
class RunInfinitelyTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-bw --run_infinitely 10.0.0.2", "lab-a");
    private static final BandwidthResult.Unit MIB = BandwidthResult.Unit.MIB_PER_SEC;

    private static TestOptions options(String command, TestKind kind, String... args) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(args));
        CommandLine root = JperfCommand.commandLineFor(command);
        root.parseArgs(all.toArray(String[]::new));
        Object c = root.getSubcommands().get(command).getCommand();
        return switch (c) {
            case WriteBwCommand w -> {
                w.common.bwReport = w.reporting; // as call() does
                yield w.common.toOptions(kind, w.bw);
            }
            case ReadBwCommand r -> {
                r.common.bwReport = r.reporting;
                yield r.common.toOptions(kind, r.bw);
            }
            default -> throw new AssertionError(c);
        };
    }

    @Test
    void theBandwidthCommandsTakeItWithPerftestsDefaults() {
        TestOptions o = options("write-bw", TestKind.WRITE_BW, "--run_infinitely", "10.0.0.2");
        assertTrue(o.params().runInfinitely());
        assertEquals(5, o.params().durationSeconds());
        assertTrue(o.params().noPeak());
        assertEquals(3, options("write-bw", TestKind.WRITE_BW, "--run-infinitely", "-D", "3", "10.0.0.2")
                .params().durationSeconds());
        assertTrue(options("read-bw", TestKind.READ_BW, "--run_infinitely").params().runInfinitely(), "the server too");
    }

    @Test
    void whatJperfCannotRunInfinitelyIsAUsageErrorOfOneLine() {
        CliRunner r = CliRunner.run("write-bw", "--run_infinitely", "-b", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("--run_infinitely: jperf does not run -b/--bidirectional infinitely yet"), r.err());
        r = CliRunner.run("write-lat", "--run_infinitely", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("not a flag of perftest's ib_write_lat"), r.err());
        r = CliRunner.run("send-bw", "--run_infinitely", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("send test"), r.err());
    }

    private static String stopped(TestOptions o, BandwidthResult whole, long nanos, String why) {
        StringWriter out = new StringWriter();
        PerftestPrinter p = new PerftestPrinter(o, RUN, new PrintWriter(out), new PrintWriter(new StringWriter()));
        p.bandwidth(new BandwidthResult(65536, 100, 0, 600, 0.0096, MIB));
        p.runStopped(whole, nanos, why);
        p.finish();
        return out.toString();
    }

    /** write_bw.c's client: the interval rows, perftest's "User stopped traffic", then jperf's whole-run row. */
    @Test
    void theClientEndsWithPerftestsLineAndTheWholeRun() {
        TestOptions o = options("write-bw", TestKind.WRITE_BW, "--run_infinitely", "10.0.0.2");
        BandwidthResult whole = new BandwidthResult(65536, 1234, 0, 601.5, 0.009624, MIB);
        String text = stopped(o, whole, 12_340_000_000L, "SIGINT");
        PerftestTextReport report = new PerftestTextReport();
        assertEquals(report.bandwidthTableHeader(MIB, OutputMode.NONE)
                + report.bandwidthRow(new BandwidthResult(65536, 100, 0, 600, 0.0096, MIB), OutputMode.NONE)
                + "\n User stopped traffic\n" + PerftestTextReport.DASHED_LINE
                + " The whole run (12.3 s, stopped by SIGINT):\n" + report.bandwidthRow(whole, OutputMode.NONE)
                + PerftestTextReport.DASHED_LINE, text);
    }

    /** write_bw.c's server prints "Client closed connection"; a jperf client's whole run follows. */
    @Test
    void theServerSaysTheClientClosedAndShowsItsWholeRunWhenReported() {
        TestOptions o = options("write-bw", TestKind.WRITE_BW, "--run_infinitely");
        BandwidthResult whole = new BandwidthResult(65536, 1234, 0, 601.5, 0.009624, MIB);
        String text = stopped(o, whole, 0, null);
        assertTrue(text.contains(" Client closed connection\n" + PerftestTextReport.DASHED_LINE
                + " The client's whole run:\n"), text);
        String perftestClient = stopped(o, null, 0, null);
        assertTrue(perftestClient.contains(" Client closed connection\n" + PerftestTextReport.DASHED_LINE), perftestClient);
        assertFalse(perftestClient.contains("whole run"), perftestClient);
    }

    /** Ctrl-C (SIGINT) and SIGTERM stop the run instead of the JVM while the handlers are installed. */
    @Test
    void aSignalRequestsTheStopInsteadOfEndingTheJvm() throws InterruptedException {
        StopSignal stop = new StopSignal();
        try (StopOnSignals signals = new StopOnSignals(stop)) {
            assertEquals(2, signals.handled(), "SIGINT and SIGTERM are handled (not under -Xrs)");
            Signal.raise(new Signal("TERM"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!stop.requested() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
        assertTrue(stop.requested(), "SIGTERM did not reach the stop signal");
        assertEquals("SIGTERM", stop.reason());
    }
}
