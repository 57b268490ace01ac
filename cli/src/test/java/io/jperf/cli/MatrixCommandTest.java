package io.jperf.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MatrixCommandTest {

    @Test
    void dryRunForThousandTwentyFourHostsTimesEightRails() {
        CliRunner r = CliRunner.run("matrix", "--dry-run", "--dry-run-hosts", "1024", "--dry-run-rails", "8", "-D", "5",
                "--warmup", "1", "--test-overhead", "2");
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertTrue(r.out().contains("1024 hosts x 8 rails, all-pairs, per-rail"), r.out());
        assertTrue(r.out().contains("rounds:     8,184 (at most 512 tests at once)"), r.out());
        assertTrue(r.out().contains("tests:      4,190,208"), r.out());
        assertTrue(r.out().contains("per test:   8 s = 5 s measured + 1 s warm-up + 2 s"), r.out());
        assertTrue(r.out().contains("wall time:  18:11:12 (65,472 s)"), r.out());
        assertTrue(r.out().contains("coordinator memory: "), r.out());
    }

    @Test
    void dryRunSizesTheSlurmAllocationFromItsEnvironment() {
        Result r = run(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "6", "SLURM_JOB_NODELIST", "gpu[01-06]"),
                "--dry-run", "--rails", "mlx5_0,mlx5_1", "--pattern", "ring");
        assertEquals(ExitCodes.OK, r.code, r.err);
        assertTrue(r.out.contains("6 hosts x 2 rails, ring, per-rail"), r.out);
        assertTrue(r.out.contains("rounds:     4 "), r.out);
    }

    @Test
    void aBadSlurmVariableIsExitTwoNamingIt() {
        Result r = run(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "3", "SLURM_JOB_NODELIST", "gpu[01-06]"), "--dry-run");
        assertEquals(ExitCodes.USAGE, r.code);
        assertTrue(r.err.contains("SLURM_NTASKS=3 but SLURM_JOB_NODELIST names 6 nodes"), r.err);
    }

    @Test
    void invalidOptionsAreExitTwo() {
        assertUsage("--fail-above 5", "--fail-above is for write-lat", "matrix", "--dry-run", "--dry-run-hosts", "4",
                "--fail-above", "5");
        assertUsage("bad threshold", "--fail-below: 'fast'", "matrix", "--dry-run", "--dry-run-hosts", "4",
                "--fail-below", "fast");
        assertUsage("pattern", "--pattern: unknown pattern 'mesh'", "matrix", "--dry-run", "--dry-run-hosts", "4",
                "--pattern", "mesh");
        assertUsage("hosts without rank", "--hosts and --rank go together", "matrix", "--hosts", "a,b");
        assertUsage("rank outside", "--rank=2 is outside", "matrix", "--dry-run", "--hosts", "a,b", "--rank", "2");
        assertUsage("same ports", "-p and --agent-port must differ", "matrix", "-p", "5000", "--agent-port", "5000");
    }

    @Test
    void aRunNeedsTheSharedSecret() {
        Result r = run(Map.of(), NO_RDMA, "--hosts", "a,b", "--rank", "1");
        assertEquals(ExitCodes.USAGE, r.code, r.err);
        assertTrue(r.err.contains("jperf matrix needs the shared secret of its members (--auth-token-file FILE or"
                + " JPERF_AUTH_TOKEN)"), r.err);
    }

    @Test
    void aMemberWithoutRdmaIsExitThreeBeforeItListens(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path token = java.nio.file.Files.writeString(dir.resolve("token"), "a-shared-secret-for-the-test");
        Result r = run(Map.of("SLURM_PROCID", "1", "SLURM_NTASKS", "2", "SLURM_STEP_NODELIST", "gpu[1-2]"), NO_RDMA,
                "--auth-token-file", token.toString(), "--rails", "mlx5_0,mlx5_1");
        assertEquals(ExitCodes.NO_RDMA, r.code, r.err);
        assertTrue(r.err.contains("no RDMA device mlx5_0 here"), r.err);
    }

    /** This host's rails when it has no RDMA: what LocalRails.live says on such a host. */
    private static final io.jperf.matrix.LocalRails NO_RDMA = devices -> {
        throw new io.jperf.verbs.RdmaUnavailableException("--rails: no RDMA device " + devices.getFirst() + " here");
    };

    private static void assertUsage(String what, String expected, String... args) {
        CliRunner r = CliRunner.run(args);
        assertEquals(ExitCodes.USAGE, r.exitCode(), what + ": " + r.err());
        assertTrue(r.err().contains(expected), what + ": " + r.err());
    }

    private record Result(int code, String out, String err) {
    }

    /** Runs {@code jperf matrix ARGS} with {@code env} as its environment. */
    private static Result run(Map<String, String> env, String... args) {
        return run(env, NO_RDMA, args);
    }

    private static Result run(Map<String, String> env, io.jperf.matrix.LocalRails rails, String... args) {
        CommandLine cl = new CommandLine(new MatrixCommand(env, rails));
        cl.setExecutionExceptionHandler(new FailureHandler());
        cl.setParameterExceptionHandler(FailureHandler::onParameterError);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }
}
