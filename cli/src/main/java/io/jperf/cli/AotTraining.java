package io.jperf.cli;

import picocli.CommandLine;

import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The training run for the ahead-of-time cache the build makes next to {@code jperf.jar} (JDK 25,
 * JEP 483/514): runs the commands whose start-up a person waits for, so the classes they load and
 * link, and the profiles of the methods they run, go into the cache the {@code jperf} launcher
 * uses. Output is discarded and exit codes are ignored: without RDMA, {@code devices} fails the way
 * it does on such a host, which is the path it trains. Not part of jperf's interface.
 */
final class AotTraining {
    /** Each command line, run in this order. */
    private static final String[][] COMMANDS = {
        {"--help"}, {"--version"}, {"devices"}, {"devices", "--json"}, {"write-bw", "--help"}, {"write-lat", "--help"}};

    private AotTraining() {
    }

    public static void main(String[] args) {
        for (String[] command : COMMANDS) {
            CommandLine cl = JperfCommand.commandLineFor(command);
            PrintWriter discard = new PrintWriter(OutputStream.nullOutputStream());
            cl.setOut(discard);
            cl.setErr(discard);
            cl.execute(command);
        }
        // As Main ends: System.exit loads the JDK's logging backend (it logs Runtime.exit at debug level).
        System.exit(0);
    }
}
