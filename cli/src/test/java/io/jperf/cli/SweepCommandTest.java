package io.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jperf.engine.TestFailedException;
import io.jperf.engine.PerfTestResult;
import io.jperf.report.JsonReader;
import io.jperf.report.RunInfo;
import io.jperf.result.BandwidthResult;
import io.jperf.result.LatencyResult;
import io.jperf.result.LinkType;
import io.jperf.result.TestHeader;
import io.jperf.sweep.LocalPathCheck;
import io.jperf.sweep.Sweep;
import io.jperf.sweep.SweepChoice;
import io.jperf.sweep.SweepPlan;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepCommandTest {

    /** Each option error: exit 2, at most two lines on stderr, naming the option; nothing runs. */
    @Test
    void invalidOptionsExitTwoNamingTheOption() {
        String[][] cases = {
            {"write-xx", "sweep: the first argument is the test, one of write-bw, write-lat, read-bw, read-lat, send-bw, send-lat, atomic-bw, atomic-lat", "sweep", "write-xx", "10.0.0.2"},
            {"PEER", "PEER", "sweep", "write-bw"},
            {"--sizes", "--sizes: '65536' is given twice", "sweep", "write-bw", "p", "--sizes", "64K,65536"},
            {"--sizes", "--sizes: 'x' is not valid", "sweep", "write-bw", "p", "--sizes", "2,x"},
            {"--rails", "--rails: 'rxe0' is not valid", "sweep", "write-bw", "p", "--rails", "rxe0"},
            {"--rails", "--rails sets what -d sets", "sweep", "write-bw", "p", "-d", "rxe0", "--rails", "rxe1=10.0.0.2"},
            {"--sources", "--sources: 'peer.example' is not valid", "sweep", "write-bw", "p", "--sources", "peer.example"},
            {"--gid-indexes", "--gid-indexes: '300' is not valid", "sweep", "write-bw", "p", "--gid-indexes", "1,300"},
            {"--rdma-cm", "--rdma-cm: 'sometimes' is not valid", "sweep", "write-bw", "p", "--rdma-cm", "sometimes"},
            {"--rdma-cm", "--rdma-cm sets what -R sets", "sweep", "write-bw", "p", "-R", "--rdma-cm", "off,on"},
            {"--tclasses", "--tclasses sets what --tclass sets", "sweep", "write-bw", "p", "--tclass", "0",
                "--tclasses", "0,106"},
            {"--sizes", "--sizes sets what -s sets", "sweep", "write-bw", "p", "-s", "4K", "--sizes", "2"},
            {"-T", "choice rdma_cm=off: -T/--tos", "sweep", "write-bw", "p", "-T", "32", "--rdma-cm", "on,off"},
            {"-t", "-t: only for a write-bw sweep", "sweep", "write-lat", "p", "-t", "4"},
            {"-q", "-q/--qp", "sweep", "write-lat", "p", "-q", "2"},
            {"--point-timeout", "--point-timeout must be", "sweep", "write-bw", "p", "--point-timeout", "0"},
            {"--pause", "--pause must be", "sweep", "write-bw", "p", "--pause", "-1"},
            {"--html", "--html: folder /nonexistent-jperf-dir does not exist", "sweep", "write-bw", "p", "--html", "/nonexistent-jperf-dir/x.html"},
            {"256", "a sweep runs at most 256", "sweep", "write-bw", "p", "--tclasses",
                "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", "--sizes", "2,4,8,16,32,64,128,256,512,1K,2K,4K,8K,16K,32K,64K"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 2, c.length);
            CliRunner r = CliRunner.run(args);
            assertEquals(ExitCodes.USAGE, r.exitCode(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().contains(c[1]), String.join(" ", args) + " -> " + r.err());
            assertTrue(r.err().lines().count() <= 2, r.err());
            assertTrue(r.out().isEmpty(), r.out());
        }
    }

    @Test
    void helpNamesTheDimensionsAndTheExitCodes() {
        CliRunner r = CliRunner.run("sweep", "--help");
        assertEquals(0, r.exitCode());
        for (String s : List.of("write-bw|write-lat PEER", "--rails=DEV=PEER_ADDR", "--sources", "--gid-indexes",
                "--rdma-cm", "--tclasses", "--sizes", "--json", "--out_json=FILE", "--html=FILE", "--point-timeout",
                "0    every choice ran", "1    at least one choice failed", "2    invalid options", "3    no usable RDMA here")) {
            assertTrue(r.out().contains(s), s + " in\n" + r.out());
        }
        assertTrue(CliRunner.run("--help").out().contains("sweep"), "listed under jperf");
    }

    // ------------------------------------------------------------------ whole runs with a fake engine

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(Sweep.PointRunner runner, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new SweepCommand(runner, LocalPathCheck.NONE, SweepPlan.SourceLocator.NONE));
        cl.setExecutionExceptionHandler(new FailureHandler());
        cl.setParameterExceptionHandler(FailureHandler::onParameterError);
        cl.setExitCodeExceptionMapper(FailureHandler::exitCode);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    /** A result without a path at {@code mib} MiB/s (bw) or {@code mib} us (lat). */
    private static PerfTestResult result(SweepChoice c, double figure) {
        var o = c.options();
        TestHeader header = TestHeader.of(o, o.target().device() == null ? "rxe0" : o.target().device(), 1024, LinkType.ETHERNET, 1,
                o.params().inlineSize(), "Unsupported", false);
        List<BandwidthResult> bw = o.params().kind().isBandwidth()
                ? List.of(new BandwidthResult(o.params().size(), 5000, figure, figure, 0.1, BandwidthResult.Unit.MIB_PER_SEC))
                : List.of();
        List<LatencyResult> lat = o.params().kind().isBandwidth() ? List.of()
                : List.of(new LatencyResult(o.params().size(), 1000, figure, figure, figure, figure, 0, figure, figure));
        return new PerfTestResult(o, header, List.of(), List.of(), "6.06 jperf", bw, lat, Optional.empty(),
                List.of(), List.of());
    }

    @Test
    void aSweepWhereEveryChoiceRanExitsZeroAndPrintsTheTable() {
        List<SweepChoice> seen = new ArrayList<>();
        Run r = run(c -> {
            seen.add(c);
            return result(c, 1000 + 400 * c.index()); // 1400 vs 2200 MiB/s at 64K: beyond the 20 % noise rule
        }, "write-bw", "10.20.0.2", "--rails", "rxe0=10.20.0.2,rxe1=10.20.1.2", "--sizes", "4K,64K", "-n", "200",
                "--report_gbits");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertEquals(4, seen.size());
        assertEquals(Optional.of("10.20.1.2"), seen.get(3).peerAddress());
        assertEquals("rxe1", seen.get(3).options().target().device());
        assertEquals(200, seen.get(3).options().params().iterations(), "-n applies to every choice");
        assertTrue(seen.get(3).options().params().reportGbits());
        assertTrue(r.out().startsWith("jperf sweep write-bw against 10.20.0.2: 4 points, 4 ran, 0 failed"), r.out());
        assertTrue(r.out().contains("<- best") && r.out().contains("<- worst"), r.out());
        List<String> progress = r.err().lines().filter(l -> l.startsWith("[")).toList();
        assertEquals(4, progress.size(), r.err());
        assertTrue(progress.get(3).startsWith("[4/4] rail=rxe1>10.20.1.2 size=64K: "), progress.get(3));
    }

    @Test
    void aFailedChoiceExitsOneAndTheOthersStillRun(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("sweep.json");
        Path html = dir.resolve("sweep.html");
        Run r = run(c -> {
            if (c.options().params().rdmaCm()) {
                throw new TestFailedException("RDMA_CM_EVENT_ADDR_ERROR for 10.20.0.2\nsecond line");
            }
            return result(c, 7.5);
        }, "write-lat", "10.20.0.2", "--rdma-cm", "off,on", "--tclasses", "0,106", "--out_json", json.toString(),
                "--html", html.toString());
        assertEquals(ExitCodes.TEST_FAILED, r.exitCode(), r.err());
        assertTrue(r.err().contains("[3/4] rdma_cm=on tclass=0: FAILED: RDMA_CM_EVENT_ADDR_ERROR for 10.20.0.2"),
                r.err());
        assertTrue(r.out().contains("2 ran, 2 failed"), r.out());
        assertTrue(r.out().contains("error: RDMA_CM_EVENT_ADDR_ERROR"), r.out());
        Map<String, Object> doc = JsonReader.parseObject(Files.readString(json));
        assertEquals("write-lat", doc.get("kind"));
        assertEquals(4, ((List<?>) doc.get("rows")).size());
        // every output names the version, the command line and the host; the JSON has a format version
        assertEquals(1L, doc.get("format_version"));
        Map<?, ?> run = (Map<?, ?>) doc.get("run");
        String commandLine = (String) run.get("command_line");
        assertTrue(commandLine.startsWith("jperf write-lat 10.20.0.2 --rdma-cm off,on --tclasses 0,106 --out_json "),
                commandLine);
        assertEquals(RunInfo.hostName(), run.get("host"));
        assertEquals(RunInfo.libraryVersion(), run.get("jperf_version"));
        assertTrue(r.out().contains("jperf " + RunInfo.libraryVersion() + " on " + RunInfo.hostName() + ": jperf"
                + " write-lat 10.20.0.2"), r.out());
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>"), page.substring(0, 40));
        assertTrue(page.contains("RDMA_CM_EVENT_ADDR_ERROR"));
        assertTrue(page.contains("<span class=\"mono\">jperf write-lat 10.20.0.2 --rdma-cm off,on"), page);
    }

    @Test
    void jsonReplacesTheTableOnStdout() {
        Run r = run(c -> result(c, 500), "write-bw", "10.20.0.2", "--gid-indexes", "1,3", "--json");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        Map<String, Object> doc = JsonReader.parseObject(r.out());
        assertEquals(List.of("gid"), doc.get("dimensions"));
        assertEquals(2, ((List<?>) doc.get("rows")).size());
    }

    @Test
    void tosGoesWithTheRdmaCmOnChoices() {
        List<SweepChoice> seen = new ArrayList<>();
        Run r = run(c -> {
            seen.add(c);
            return result(c, 800);
        }, "write-bw", "10.20.0.2", "--rdma-cm", "on", "-T", "32");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertEquals(Integer.valueOf(32), seen.getFirst().options().params().tos());
        assertTrue(seen.getFirst().options().params().rdmaCm());
    }
}
