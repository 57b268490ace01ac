package io.jperf.cli;

import io.jperf.JperfException;
import io.jperf.wire.PeerText;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * The one place where failures become exit codes: every failure jperf expects is a
 * {@link JperfException} whose category decides the code, printed as its message (control
 * characters escaped: it may quote a peer); a control connection that failed (an
 * {@link IOException}) is a failed test; an allocation that failed is a failed call; only a bug (an
 * exception nobody expected) prints a stack trace and exits 70.
 */
final class FailureHandler implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parseResult) {
        PrintWriter err = cl.getErr();
        int code = exitCode(ex);
        if (code == ExitCodes.INTERNAL) {
            err.println("jperf: internal error (please report it): " + ex);
            ex.printStackTrace(err);
        } else {
            err.println("jperf: " + PeerText.multiline(String.valueOf(ex.getMessage())));
        }
        err.flush();
        return code;
    }

    static int onParameterError(ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println("jperf: " + PeerText.multiline(String.valueOf(ex.getMessage())));
        if (ex instanceof PerftestFlags.Refused) {
            err.flush();
            return ExitCodes.USAGE;
        }
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for the options and their ranges.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /** An allocation failed (Java heap or native memory): one line and exit 4, never a dead JVM with a trace. */
    static int onOutOfMemory(OutOfMemoryError e, CommandLine cl) {
        PrintWriter err = cl.getErr();
        err.println("jperf: could not allocate memory (" + e.getMessage() + "): lower -s, -q, -t or -n, or give the"
                + " JVM more heap (JAVA_OPTS=-Xmx...) or the host more free memory");
        err.flush();
        return ExitCodes.RDMA_ERROR;
    }

    static int exitCode(Throwable ex) {
        return switch (ex) {
            case JperfException e -> exitCode(e.category());
            case CommandLine.ParameterException e -> ExitCodes.USAGE;
            case UncheckedIOException e -> ExitCodes.TEST_FAILED;
            case IOException e -> ExitCodes.TEST_FAILED;
            default -> ExitCodes.INTERNAL;
        };
    }

    static int exitCode(JperfException.Category category) {
        return switch (category) {
            case TEST_FAILED -> ExitCodes.TEST_FAILED;
            case INVALID_INPUT -> ExitCodes.USAGE;
            case NO_RDMA -> ExitCodes.NO_RDMA;
            case CALL_FAILED -> ExitCodes.RDMA_ERROR;
        };
    }
}
