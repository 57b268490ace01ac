package io.jperf.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** read-bw and read-lat on the command line: listed, their -o, and the verb's refusals (no RDMA needed). */
class ReadCommandsTest {
    @Test
    void bothAreListedAndTakeOutstandingReads() {
        String top = CliRunner.run("--help").out();
        assertTrue(top.contains("read-bw") && top.contains("read-lat"), top);
        for (String command : new String[] {"read-bw", "read-lat"}) {
            CliRunner r = CliRunner.run(command, "--help");
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("-o, --outs=N"), r.out());
        }
        assertTrue(CliRunner.run("read-bw", "--help").out().contains("--bidirectional"), "bandwidth flags");
    }

    @Test
    void inlineAndUcAreRefusedForReadAndWriteTestsHaveNoOuts() {
        CliRunner inline = CliRunner.run("read-bw", "-I", "64", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, inline.exitCode(), inline.err());
        assertTrue(inline.err().contains("-I/--inline_size: RDMA READ carries no payload"), inline.err());
        CliRunner uc = CliRunner.run("read-bw", "-c", "UC", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, uc.exitCode(), uc.err());
        assertTrue(uc.err().contains("UC has no RDMA READ"), uc.err());
        CliRunner outs = CliRunner.run("read-lat", "-o", "300", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, outs.exitCode(), outs.err());
        assertTrue(outs.err().contains("-o/--outs"), outs.err());
        CliRunner write = CliRunner.run("write-bw", "-o", "4", "10.0.0.2");
        assertEquals(ExitCodes.USAGE, write.exitCode(), write.err());
    }
}
