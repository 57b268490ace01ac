package io.jperf.cli;

import io.jperf.engine.TestFailedException;
import io.jperf.verbs.RdmaException;
import io.jperf.verbs.RdmaUnavailableException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

import java.io.PrintWriter;

/**
 * Turns expected failures into one or two lines on stderr and a documented exit code; only a
 * bug (an exception nobody expected) prints a stack trace.
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
            err.println("jperf: " + ex.getMessage());
        }
        err.flush();
        return code;
    }

    static int onParameterError(ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println("jperf: " + ex.getMessage());
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for the options and their ranges.");
        err.flush();
        return ExitCodes.USAGE;
    }

    static int exitCode(Throwable ex) {
        return switch (ex) {
            case RdmaUnavailableException e -> ExitCodes.NO_RDMA;
            case RdmaException e -> ExitCodes.RDMA_ERROR;
            case CommandLine.ParameterException e -> ExitCodes.USAGE;
            case UsageException e -> ExitCodes.USAGE;
            case java.io.UncheckedIOException e -> ExitCodes.TEST_FAILED;
            case TestFailedException e -> ExitCodes.TEST_FAILED;
            default -> ExitCodes.INTERNAL;
        };
    }
}
