package io.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** atomic-bw and atomic-lat on the command line: listed, -A and -o, and what they refuse (no RDMA needed). */
class AtomicCommandsTest {
    @Test
    void bothAreListedAndTakeTheAtomicTypeAndOutstandingOperations() {
        String top = CliRunner.run("--help").out();
        assertTrue(top.contains("atomic-bw") && top.contains("atomic-lat"), top);
        for (String command : new String[] {"atomic-bw", "atomic-lat"}) {
            CliRunner r = CliRunner.run(command, "--help");
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("-A, --atomic_type"), r.out());
            assertTrue(r.out().contains("-o, --outs"), r.out());
            assertFalse(r.out().contains("--rx-depth"), r.out());
        }
        assertTrue(CliRunner.run("atomic-bw", "--help").out().contains("--tx-depth"), "bandwidth flags");
    }

    @Test
    void anotherSizeAllSizesUcABadTypeAndInlineAreRefusedInOneLine() {
        String[][] cases = {
            {"-s/--size: the message size cannot be changed for atomic tests", "atomic-bw", "-s", "64", "10.0.0.2"},
            {"-a/--all: the message size cannot be changed", "atomic-lat", "-a", "10.0.0.2"},
            {"UC has no atomic operations", "atomic-bw", "-c", "UC", "10.0.0.2"},
            {"-A/--atomic_type: 'ADD' is not an atomic type; use CMP_AND_SWAP or FETCH_AND_ADD",
                "atomic-lat", "-A", "ADD", "10.0.0.2"},
            {"-I/--inline_size: ATOMIC carries no payload", "atomic-bw", "-I", "8", "10.0.0.2"},
            {"-A/--atomic_type: not a flag of perftest's ib_write_bw", "write-bw", "-A", "FETCH_AND_ADD", "10.0.0.2"},
            {"--use-null-mr: not a flag of perftest's ib_atomic_bw", "atomic-bw", "--use-null-mr", "10.0.0.2"},
            {"-r/--rx-depth: not a flag of perftest's ib_atomic_lat", "atomic-lat", "-r", "4", "10.0.0.2"},
        };
        for (String[] c : cases) {
            String[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            CliRunner r = CliRunner.run(args);
            assertEquals(ExitCodes.USAGE, r.exitCode(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().contains(c[0]), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }
}
