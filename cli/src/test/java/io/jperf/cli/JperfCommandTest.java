package io.jperf.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /**
     * jperf builds the full model only of the subcommand it runs and lists the others by name and
     * description: the user sees exactly what the full model prints.
     */
    @ParameterizedTest
    @ValueSource(strings = {"--help", "", "-V", "devices --help", "write-bw --help", "write-lat -h", "serve --help",
        "sweep --help", "help", "help write-bw", "help sweep", "write-everything", "wrte-bw -s 2", "devices --bogus",
        "write-lat --size nope", "--bogus devices", "-h", "--bogus", "-V --help", "-- devices", "devices"})
    void onlyTheNamedSubcommandsModelIsBuiltAndTheOutputIsTheSame(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");
        CliRunner lazy = CliRunner.run(args);
        CliRunner full = CliRunner.runWithAllModels(args);
        assertEquals(full.exitCode(), lazy.exitCode(), line);
        assertEquals(full.out(), lazy.out(), line);
        assertEquals(full.err(), lazy.err(), line);
        assertFalse(full.out().isEmpty() && full.err().isEmpty(), "printed something: " + line);
    }

    /**
     * The root's usage without any subcommand added (what {@code jperf --help} builds) wraps its command list as
     * picocli wraps the list of added subcommands, at the narrowest width picocli allows and at wide ones.
     */
    @ParameterizedTest
    @ValueSource(ints = {55, 80, 123, 200})
    void theRootUsageIsTheSameAtEveryWidth(int width) {
        String before = System.getProperty("picocli.usage.width");
        System.setProperty("picocli.usage.width", Integer.toString(width));
        try {
            for (String line : List.of("--help", "")) {
                String[] args = line.isEmpty() ? new String[0] : new String[] {line};
                CliRunner lazy = CliRunner.run(args);
                CliRunner full = CliRunner.runWithAllModels(args);
                assertEquals(full.out() + full.err(), lazy.out() + lazy.err(), "width " + width + ": " + line);
            }
        } finally {
            if (before == null) {
                System.clearProperty("picocli.usage.width");
            } else {
                System.setProperty("picocli.usage.width", before);
            }
        }
    }

    @Test
    void theRootUsageListsEverySubcommandWithItsDescription() {
        String out = CliRunner.run("--help").out();
        for (String name : JperfCommand.SUBCOMMANDS) {
            assertTrue(out.matches("(?s).*\\n\\s+" + name + "\\s+\\S.*"), name + " listed with a description: " + out);
        }
        assertTrue(out.contains("RDMA WRITE bandwidth, like ib_write_bw"), out);
    }

    @Test
    void anUnknownSubcommandIsAUsageError() {
        CliRunner r = CliRunner.run("write-everything");
        assertEquals(ExitCodes.USAGE, r.exitCode());
    }

    /**
     * Start-up: the root, the subcommands it only lists and {@code devices} are built without reading an
     * annotation, so a JVM that runs {@code jperf --help}, {@code --version} or {@code devices} generates no
     * annotation proxy class (tens of milliseconds each). {@code devices} ends with 3 on a host without RDMA.
     */
    @ParameterizedTest
    @ValueSource(strings = {"--help", "--version", "devices"})
    void theCommandsAPersonWaitsForReadNoAnnotation(String arg) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(List.of(java.toString(), "-Xshare:auto", "--enable-native-access=ALL-UNNAMED",
                "-Xlog:class+load=info:stdout",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), arg))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "jperf " + arg + " did not end");
        assertTrue(p.exitValue() == ExitCodes.OK || arg.equals("devices") && p.exitValue() == ExitCodes.NO_RDMA,
                "exit " + p.exitValue() + ": " + out);
        assertTrue(out.contains("io.jperf.cli.JperfCommand "), "the log lists loaded classes: " + out);
        assertFalse(out.contains("__dynamic_proxy__"), "an annotation was read: " + out.lines()
                .filter(l -> l.contains("__dynamic_proxy__")).toList());
    }
}
