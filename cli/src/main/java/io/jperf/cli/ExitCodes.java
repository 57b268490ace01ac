package io.jperf.cli;

import picocli.CommandLine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The documented process exit codes of {@code jperf}, and the one table every command's help shows
 * under "Exit codes" ({@link #addHelpSections}): the same code means the same thing in every command;
 * a command names only the codes it can give, in its own words where that helps.
 */
public final class ExitCodes {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** The test ran but failed: completion errors, a peer that went away, a mismatch with the peer. */
    public static final int TEST_FAILED = 1;
    /** Invalid options or combinations; nothing was touched. */
    public static final int USAGE = 2;
    /** No usable RDMA here: libraries missing, kernel without RDMA, no device, no such device or port. */
    public static final int NO_RDMA = 3;
    /** A verbs or RDMA CM call failed; the message names it, its errno and a hint. */
    public static final int RDMA_ERROR = 4;

    /** A bug: an exception nobody expected (printed with its stack trace). */
    public static final int INTERNAL = 70;

    /** The heading picocli prints above the table. */
    static final String HEADING = "%nExit codes:%n";

    private static final Map<Integer, String> MEANINGS = Map.of(
            OK, "success",
            TEST_FAILED, "the test ran but failed (completion errors, the peer went away or refused, a mismatch with"
                    + " the peer)",
            USAGE, "invalid options or input; nothing was touched",
            NO_RDMA, "no usable RDMA here (libraries missing, kernel without RDMA, no such device or port, port not"
                    + " ACTIVE)",
            RDMA_ERROR, "a verbs, RDMA CM or system call failed, or an allocation (the message names the call,"
                    + " errno and a hint)",
            INTERNAL, "internal error (a bug; printed with its stack trace)");

    private ExitCodes() {
    }

    /**
     * The exit codes {@code command} can give and what each means there, in ascending order.
     *
     * @param command {@code jperf} for the top command, else a subcommand's name (one not named here gets
     *     the general table)
     */
    public static Map<String, String> forCommand(String command) {
        Map<Integer, String> codes = new LinkedHashMap<>();
        switch (command) {
            case "write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat", "atomic-bw", "atomic-lat" -> {
                put(codes, OK, "the test ran");
                put(codes, TEST_FAILED, null);
                put(codes, USAGE, null);
                put(codes, NO_RDMA, null);
                put(codes, RDMA_ERROR, null);
            }
            case "devices" -> {
                put(codes, OK, "the devices were listed");
                put(codes, USAGE, null);
                put(codes, NO_RDMA, null);
                put(codes, RDMA_ERROR, null);
            }
            case "serve" -> {
                put(codes, OK, "--count clients were served and every test ran");
                put(codes, TEST_FAILED, "with --count, at least one client's test failed");
                put(codes, USAGE, null);
                put(codes, NO_RDMA, null);
                put(codes, RDMA_ERROR, "listening failed (port in use, --bind not an address of this host), or a"
                        + " verbs or system call");
            }
            case "sweep" -> {
                put(codes, OK, "every choice ran");
                put(codes, TEST_FAILED, "at least one choice failed (it is in the table with its error), or a report"
                        + " file could not be written");
                put(codes, USAGE, "invalid options; nothing was run");
                put(codes, NO_RDMA, "no usable RDMA here (libraries missing, kernel without RDMA, no device); nothing"
                        + " was run");
                put(codes, RDMA_ERROR, null);
            }
            case "doctor" -> {
                // doctor's codes grade its findings; a host without RDMA is a failed check (2), not 3
                put(codes, OK, "every check passed (or was skipped)");
                put(codes, TEST_FAILED, "warnings, no failure");
                put(codes, USAGE, "at least one check failed; also invalid options, which print a usage message on"
                        + " stderr and nothing on stdout (a walk always prints its report, ending in a summary line /"
                        + " JSON document)");
            }
            default -> {
                // jperf itself, and a command this table does not name yet: every code, in the general words
                put(codes, OK, null);
                put(codes, TEST_FAILED, null);
                put(codes, USAGE, null);
                put(codes, NO_RDMA, null);
                put(codes, RDMA_ERROR, null);
            }
        }
        put(codes, INTERNAL, null);
        Map<String, String> help = new LinkedHashMap<>();
        codes.forEach((code, meaning) -> help.put(Integer.toString(code), meaning));
        return Collections.unmodifiableMap(help);
    }

    private static void put(Map<Integer, String> codes, int code, String meaning) {
        codes.put(code, meaning != null ? meaning : MEANINGS.get(code));
    }

    /** Gives the top command and each of its subcommands (but {@code help}) its "Exit codes" section. */
    static void addHelpSections(CommandLine root) {
        root.getCommandSpec().usageMessage().exitCodeListHeading(HEADING).exitCodeList(forCommand("jperf"));
        root.getSubcommands().forEach((name, sub) -> {
            if (!name.equals("help")) {
                sub.getCommandSpec().usageMessage().exitCodeListHeading(HEADING).exitCodeList(forCommand(name));
            }
        });
    }
}
