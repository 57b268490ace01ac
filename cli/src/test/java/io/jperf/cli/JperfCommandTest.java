package io.jperf.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JperfCommandTest {
    @Test
    void versionNamesJperfAndTheJava() {
        CliRunner r = CliRunner.run("--version");
        assertEquals(ExitCodes.OK, r.exitCode());
        assertTrue(r.out().startsWith("jperf 0."), r.out());
        assertTrue(r.out().contains("Java 25"), r.out());
    }

    @Test
    void helpListsTheSubcommandsAndExitCodes() {
        CliRunner r = CliRunner.run("--help");
        assertEquals(ExitCodes.OK, r.exitCode());
        assertTrue(r.out().contains("devices"), r.out());
        assertTrue(r.out().contains("Exit codes:"), r.out());
        assertTrue(r.out().matches("(?s).*\\n\\s+3\\s+no usable RDMA here.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\n\\s+70\\s+internal error.*"), r.out());
    }

    @Test
    void anUnknownOptionIsAUsageErrorWithoutAStackTrace() {
        CliRunner r = CliRunner.run("devices", "--bogus");
        assertEquals(ExitCodes.USAGE, r.exitCode());
        assertTrue(r.err().startsWith("jperf: Unknown option: '--bogus'"), r.err());
        assertTrue(r.err().contains("jperf devices --help"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void anUnknownSubcommandIsAUsageError() {
        CliRunner r = CliRunner.run("write-everything");
        assertEquals(ExitCodes.USAGE, r.exitCode());
    }
}
