package io.jperf.cli;

import io.jperf.options.OutputMode;
import io.jperf.options.TestKind;
import io.jperf.options.TestOptions;
import io.jperf.report.PerftestTextReport;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import io.jperf.stats.LatencySamples;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's report flags: -H/--report-histogrm and -U/--report-unsorted (latency), --report-both (bandwidth). */
class ReportFlagsTest {
    private static final RunInfo RUN = new RunInfo("0.1.0", "jperf write-lat", "lab-a");
    private static final String DASHES = PerftestTextReport.DASHED_LINE;
    /* deltas 10, 12, 8, 14, 8, 18, 30 us: half round trips 5, 6, 4, 7, 4, 9, 15 */
    private static final long[] T = {0, 10000, 22000, 30000, 44000, 52000, 70000, 100000};
    private static final LatencyResult ROW = new LatencyResult(2, 8, 4, 9, 5, 5.2, 1.1, 9, 9);
    private static final BandwidthResult.Unit MIB = BandwidthResult.Unit.MIB_PER_SEC;

    @Test
    void theLatencyCommandsTakePerftestsParserSpellingsOfHAndU() {
        for (String command : List.of("write-lat", "read-lat", "atomic-lat", "send-lat")) {
            for (String flag : List.of("-H", "--report-histogrm", "-U", "--report-unsorted")) {
                CommandLine root = JperfCommand.commandLineFor(command);
                CommandLine.ParseResult parsed = root.parseArgs(command, flag, "10.0.0.2").subcommand();
                assertFalse(PerftestFlags.isRefusal(parsed.matchedOption(flag)), command + " " + flag);
            }
        }
    }

    /** perftest's help prints --report-histogram, its parser knows only --report-histogrm; so does jperf's. */
    @Test
    void theHelpsSpellingIsRefusedWithAPointerToTheParsersOne() {
        CliRunner r = CliRunner.run("write-lat", "--report-histogram", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("--report-histogram: not a flag of perftest's ib_write_lat"), r.err());
        assertTrue(r.err().contains("-H"), r.err());
    }

    @Test
    void theBandwidthCommandsRefuseHAndUAsPerftestDoes() {
        for (String flag : List.of("-H", "-U")) {
            CliRunner r = CliRunner.run("write-bw", flag, "10.0.0.2");
            assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
            assertTrue(r.err().contains("not a flag of perftest's ib_write_bw"), r.err());
        }
        CliRunner r = CliRunner.run("write-lat", "--report-both", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, r.exitCode(), r.err());
        assertTrue(r.err().contains("not a flag of perftest's ib_write_lat"), r.err());
    }

    private static StringWriter out;

    private static PerftestPrinter printer(TestOptions options) {
        out = new StringWriter();
        return new PerftestPrinter(options, RUN, new PrintWriter(out), new PrintWriter(new StringWriter()));
    }

    private static TestOptions lat(OutputMode mode) {
        return TestOptions.builder(TestKind.WRITE_LAT).serverHost("10.0.0.2").outputMode(mode).build();
    }

    /** print_report_lat: -U's list, then -H's, then the table's title again, then the row. */
    @Test
    void bothListsComeBeforeTheRowInPerftestsOrder() {
        PerftestPrinter p = printer(lat(OutputMode.NONE)).samples(true, true);
        p.latencySamples(2, new LatencySamples(T, T.length, 2));
        p.latency(ROW);
        PerftestTextReport report = new PerftestTextReport();
        String header = report.latencyTableHeader(OutputMode.NONE);
        assertEquals(header + "#, usec\n1, 5\n2, 6\n3, 4\n4, 7\n5, 4\n6, 9\n7, 15\n"
                + "#, usec\n1, 4\n2, 4\n3, 5\n4, 6\n5, 7\n" + header + report.latencyRow(ROW, OutputMode.NONE),
                out.toString());
    }

    @Test
    void onlyTheListAskedForIsPrinted() {
        PerftestPrinter p = printer(lat(OutputMode.NONE)).samples(false, true);
        p.latencySamples(2, new LatencySamples(T, T.length, 2));
        assertEquals(1, out.toString().split("#, usec", -1).length - 1, out.toString());
        assertTrue(out.toString().contains("1, 5\n2, 6\n"), "unsorted: " + out);
        p = printer(lat(OutputMode.NONE)).samples(true, false);
        p.latencySamples(2, new LatencySamples(T, T.length, 2));
        assertTrue(out.toString().contains("#, usec\n1, 4\n2, 4\n3, 5\n"), "sorted: " + out);
        p = printer(lat(OutputMode.NONE));
        p.latencySamples(2, new LatencySamples(T, T.length, 2));
        assertEquals("", out.toString(), "without -H and -U nothing");
    }

    /** With --output=latency perftest prints the list and the one number, no titles. */
    @Test
    void withOutputLatencyTheListIsFollowedByTheNumberOnly() {
        PerftestPrinter p = printer(lat(OutputMode.LATENCY)).samples(true, false);
        p.latencySamples(2, new LatencySamples(T, T.length, 2));
        p.latency(ROW);
        assertEquals("#, usec\n1, 4\n2, 4\n3, 5\n4, 6\n5, 7\n5.200000\n", out.toString());
    }

    private static TestOptions bw(boolean bidirectional, boolean all) {
        return TestOptions.builder(TestKind.WRITE_BW).serverHost("10.0.0.2").bidirectional(bidirectional)
                .allSizes(all).build();
    }

    /** write_bw.c: the sum's row, then (report_both && duplex, RUN_REGULAR) each side's own. */
    @Test
    void reportBothPrintsEachSidesRowAfterTheSum() {
        BandwidthResult local = new BandwidthResult(65536, 5000, 100, 90, 0.0014, MIB);
        BandwidthResult remote = new BandwidthResult(65536, 5000, 80, 70, 0.0011, MIB);
        PerftestPrinter p = printer(bw(true, false)).reportBoth(true);
        p.bandwidthParts(local, remote);
        p.bandwidth(local.plus(remote));
        PerftestTextReport report = new PerftestTextReport();
        assertEquals(report.bandwidthTableHeader(MIB, OutputMode.NONE)
                + report.bandwidthRow(local.plus(remote), OutputMode.NONE)
                + report.bothSides(local, remote, OutputMode.NONE), out.toString());
        assertTrue(out.toString().contains(DASHES + "\n Remote results: \n"), out.toString());
    }

    @Test
    void withoutTheFlagOrWithAllSizesOnlyTheSumIsPrinted() {
        BandwidthResult local = new BandwidthResult(65536, 5000, 100, 90, 0.0014, MIB);
        BandwidthResult remote = new BandwidthResult(65536, 5000, 80, 70, 0.0011, MIB);
        for (PerftestPrinter p : List.of(printer(bw(true, false)), printer(bw(true, true)).reportBoth(true))) {
            p.bandwidthParts(local, remote);
            p.bandwidth(local.plus(remote));
            assertFalse(out.toString().contains("Local results"), out.toString());
        }
    }

    /** What perftest silently ignores, jperf says on stderr. */
    @Test
    void flagsWithNothingToShowAreNamedNotIgnored() {
        LatencyFlags h = new LatencyFlags();
        h.histogram = true;
        TestOptions timed = TestOptions.builder(TestKind.WRITE_LAT).serverHost("10.0.0.2").durationSeconds(4).build();
        assertEquals(List.of("-H: a timed run (-D) prints no samples, as perftest's"),
                PerfTestCommand.flagNotes(timed, h, null, false));
        assertEquals(List.of(), PerfTestCommand.flagNotes(lat(OutputMode.NONE), h, null, false));
        assertEquals(1, PerfTestCommand.flagNotes(lat(OutputMode.NONE), h, null, true).size());
        BwReportFlags both = new BwReportFlags();
        both.reportBoth = true;
        assertTrue(PerfTestCommand.flagNotes(bw(false, false), null, both, false).getFirst()
                .startsWith("--report-both: only a bidirectional run (-b)"));
        assertTrue(PerfTestCommand.flagNotes(bw(true, true), null, both, false).getFirst().contains("-a"));
        assertEquals(List.of(), PerfTestCommand.flagNotes(bw(true, false), null, both, false));
    }

    @Test
    void theBandwidthCommandsTakeReportBothButSweepDoesNot() {
        CommandLine.Model.CommandSpec sweep = JperfCommand.commandLineFor("sweep").getSubcommands().get("sweep")
                .getCommandSpec();
        assertTrue(sweep.findOption("--report-both") == null && sweep.findOption("--run_infinitely") == null,
                "sweep shares -b, -q, ... (BwFlags) but not the reporting flags");
        assertTrue(sweep.findOption("--bidirectional") != null, "the check looks at sweep's real options");
        for (String command : List.of("write-bw", "read-bw", "send-bw", "atomic-bw")) {
            List<String> args = new ArrayList<>(List.of(command, "--report-both", "10.0.0.2"));
            CommandLine root = JperfCommand.commandLineFor(command);
            CommandLine.ParseResult parsed = root.parseArgs(args.toArray(String[]::new)).subcommand();
            assertFalse(PerftestFlags.isRefusal(parsed.matchedOption("--report-both")), command);
            assertFalse(PerftestFlags.isRefusal(parsed.matchedOption("--report_both")), command);
        }
    }
}
