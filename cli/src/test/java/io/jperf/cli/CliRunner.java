package io.jperf.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the jperf command line in-process and captures its exit code and output. */
record CliRunner(int exitCode, String out, String err) {
    /** As {@code jperf} runs: the full model only for the subcommand named ({@link JperfCommand#commandLineFor}). */
    static CliRunner run(String... args) {
        return run(JperfCommand.commandLineFor(args), args);
    }

    /** With every subcommand's full model built ({@link JperfCommand#commandLine()}). */
    static CliRunner runWithAllModels(String... args) {
        return run(JperfCommand.commandLine(), args);
    }

    private static CliRunner run(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliRunner(code, out.toString(), err.toString());
    }
}
