package io.jperf.cli;

import io.jperf.JperfException;
import io.jperf.engine.TestFailedException;
import io.jperf.ffi.LibcException;
import io.jperf.options.OptionsException;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;
import io.jperf.wire.ControlChannel;
import io.jperf.wire.PerftestVersion;
import io.jperf.wire.ProtocolException;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Each documented exit code is reachable from a real command line, every failure maps through the
 * one exception root, and only a bug gives 70 with a stack trace.
 */
class ExitCodesTest {

    private static void assertOneLine(CliRunner r) {
        assertEquals(1, r.err().lines().count(), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void zeroForSuccess() {
        assertEquals(ExitCodes.OK, CliRunner.run("--version").exitCode());
    }

    @Test
    void oneWhenTheTestRanButFailed() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        CompletableFuture<CliRunner> serve = CompletableFuture.supplyAsync(() -> CliRunner.run("serve", "-p",
                Integer.toString(port), "--bind", "127.0.0.1", "--count", "1", "--timeout", "5"));
        try (ControlChannel ch = ControlChannel.connect("127.0.0.1", port, null, Duration.ofSeconds(20))) {
            ch.exchangeVersion(PerftestVersion.parse("6.06")); // a perftest client: serve cannot run its test
        }
        CliRunner r = serve.get(30, TimeUnit.SECONDS);
        assertEquals(ExitCodes.TEST_FAILED, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("FAILED: `jperf serve` runs tests for jperf clients"), r.out());
        assertTrue(r.out().contains("OPEN TO ANYONE"), r.out());
    }

    @Test
    void twoForInvalidOptionsAndNoCommandAtAll(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        CliRunner none = CliRunner.run();
        assertEquals(ExitCodes.USAGE, none.exitCode());
        assertTrue(none.err().contains("Usage: jperf"), none.err());
        String[][] cases = {
            {"write-bw", "--cpu", "99999"},
            {"write-bw", "--loopback", "--peer-dev", ""},
            {"write-bw", "--csv", dir.toString()},
            {"write-lat", "--hlog", dir.resolve("missing/x.hlog").toString()},
            {"write-bw", "--out_json", "--out_json_file", dir.resolve("no/such/dir.json").toString()},
            {"sweep", "write-bw", "peer", "--out_json", dir.toString()},
            {"serve", "--max-memory", "lots"},
            {"serve", "--max-duration", "0"},
            {"serve", "--auth-token-file", dir.resolve("missing-token").toString()},
        };
        for (String[] args : cases) {
            CliRunner r = CliRunner.run(args);
            assertEquals(ExitCodes.USAGE, r.exitCode(), String.join(" ", args) + ": " + r.err());
            assertOneLine(r);
        }
        Files.writeString(dir.resolve("short"), "tooshort");
        CliRunner shortSecret = CliRunner.run("serve", "--auth-token-file", dir.resolve("short").toString());
        assertEquals(ExitCodes.USAGE, shortSecret.exitCode());
        assertTrue(shortSecret.err().contains("at least 16"), shortSecret.err());
    }

    @Test
    void threeWithoutUsableRdma() {
        assumeFalse(Files.isDirectory(Path.of("/sys/class/infiniband")), "this kernel has RDMA: 3 needs a host without it");
        CliRunner r = CliRunner.run("write-bw", "--loopback");
        assertEquals(ExitCodes.NO_RDMA, r.exitCode(), r.err());
        assertOneLine(r);
    }

    @Test
    void sweepExitsThreeWithoutUsableRdmaLikeTheOthers() {
        assumeFalse(Files.isDirectory(Path.of("/sys/class/infiniband")), "this kernel has RDMA: 3 needs a host without it");
        CliRunner r = CliRunner.run("sweep", "write-bw", "127.0.0.1", "--sizes", "4K,64K");
        assertEquals(ExitCodes.NO_RDMA, r.exitCode(), r.out() + r.err());
        assertOneLine(r);
        assertTrue(r.out().isEmpty(), "nothing ran: " + r.out());
    }

    @Test
    void everyCommandsHelpListsItsExitCodesFromTheOneTable() {
        List<String> commands = new java.util.ArrayList<>(List.of(JperfCommand.SUBCOMMANDS));
        commands.addFirst("jperf");
        for (String command : commands) {
            CliRunner r = command.equals("jperf") ? CliRunner.run("--help") : CliRunner.run(command, "--help");
            assertEquals(ExitCodes.OK, r.exitCode(), command);
            String help = r.out().replaceAll("\\s+", " ");
            assertTrue(help.contains(" Exit codes: "), command + ":\n" + r.out());
            Map<String, String> table = ExitCodes.forCommand(command);
            assertTrue(table.containsKey("0") && table.containsKey("2") && table.containsKey("70"), command);
            for (Map.Entry<String, String> e : table.entrySet()) {
                String row = " " + e.getKey() + " " + e.getValue().replaceAll("\\s+", " ");
                assertTrue(help.contains(row), command + " lacks '" + row + "' in\n" + r.out());
            }
        }
        // a subcommand added later gets the general table until it is named there
        assertEquals(ExitCodes.forCommand("jperf"), ExitCodes.forCommand("a-new-command"));
        assertEquals(List.of("0", "1", "2", "3", "4", "70"), List.copyOf(ExitCodes.forCommand("jperf").keySet()));
        // a code means the same everywhere: 3 is no RDMA in every command that can give it
        for (String command : commands) {
            String three = ExitCodes.forCommand(command).get("3");
            assertTrue(three == null || three.startsWith("no usable RDMA here"), command + ": " + three);
        }
    }

    @Test
    void fourWhenServeCannotListen() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            CliRunner r = CliRunner.run("serve", "-p", Integer.toString(taken.getLocalPort()));
            assertEquals(ExitCodes.RDMA_ERROR, r.exitCode(), r.err());
            assertOneLine(r);
            assertTrue(r.err().contains("Address already in use"), r.err());
        }
        CliRunner notOurs = CliRunner.run("serve", "--bind", "192.0.2.1");
        assertEquals(ExitCodes.RDMA_ERROR, notOurs.exitCode(), notOurs.err());
        assertTrue(notOurs.err().contains("not an address of this host"), notOurs.err());
    }

    @Test
    void everyFailureMapsThroughItsCategoryAndOnlyABugIsSeventy() {
        assertEquals(ExitCodes.TEST_FAILED, FailureHandler.exitCode(new TestFailedException("peer went away")));
        assertEquals(ExitCodes.TEST_FAILED, FailureHandler.exitCode(new ProtocolException("peer closed")));
        assertEquals(ExitCodes.USAGE, FailureHandler.exitCode(new OptionsException("-s/--size: bad")));
        assertEquals(ExitCodes.NO_RDMA, FailureHandler.exitCode(new RdmaUnavailableException("no device")));
        assertEquals(ExitCodes.RDMA_ERROR, FailureHandler.exitCode(RdmaException.of("ibv_reg_mr", 12)));
        assertEquals(ExitCodes.RDMA_ERROR, FailureHandler.exitCode(new LibcException("sched_setaffinity", 22, null)));
        for (JperfException.Category c : JperfException.Category.values()) {
            assertTrue(FailureHandler.exitCode(c) >= 1 && FailureHandler.exitCode(c) <= 4, c.name());
        }
        assertEquals(ExitCodes.INTERNAL, FailureHandler.exitCode(new IllegalStateException("a bug")));
    }

    @Test
    void anAllocationFailureIsOneLineAndFour() {
        picocli.CommandLine cl = JperfCommand.commandLine();
        java.io.StringWriter err = new java.io.StringWriter();
        cl.setErr(new java.io.PrintWriter(err, true));
        assertEquals(ExitCodes.RDMA_ERROR, FailureHandler.onOutOfMemory(new OutOfMemoryError("Java heap space"), cl));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("could not allocate memory"), err.toString());
    }

    @Test
    void aTestThatCannotFitInMemoryIsRefusedBeforeItStarts() {
        io.jperf.options.TestOptions big = io.jperf.options.TestOptions.builder(io.jperf.options.TestKind.WRITE_BW)
                .size(1L << 30).numQps(4).loopback(true).build();
        UsageException e = org.junit.jupiter.api.Assertions.assertThrows(UsageException.class,
                () -> MemoryCheck.require(big, true, java.util.OptionalLong.of(8L << 30), 1L << 30));
        assertTrue(e.getMessage().contains("16.0 GiB") && e.getMessage().contains("MemAvailable"), e.getMessage());
        MemoryCheck.require(big.toBuilder().size(65536).build(), true, java.util.OptionalLong.of(8L << 30), 1L << 30);
    }
}
