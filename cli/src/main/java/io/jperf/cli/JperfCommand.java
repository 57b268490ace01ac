package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** The root command: {@code jperf <subcommand>}. */
@Command(name = "jperf",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "RDMA performance tests from Java, perftest-compatible, with the Linux path each result ran on."},
        subcommands = {DevicesCommand.class, WriteBwCommand.class, WriteLatCommand.class, ServeCommand.class, SweepCommand.class, DoctorCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:the test ran but failed (completion errors, peer went away, mismatch with the peer)",
            "2:invalid options; nothing was touched",
            "3:no usable RDMA here (libraries missing, kernel without RDMA, no such device or port)",
            "4:a verbs, RDMA CM or system call failed, or an allocation (the message names the call, errno and a hint)",
            "70:internal error (a bug; printed with its stack trace)"})
public final class JperfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** No subcommand: the usage on stderr and exit 2, as for any other incomplete command line. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("jperf: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** The configured command line: subcommands, exit-code mapping and error handlers. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JperfCommand());
        cl.setExecutionExceptionHandler(new FailureHandler());
        cl.setParameterExceptionHandler(FailureHandler::onParameterError);
        cl.setExitCodeExceptionMapper(FailureHandler::exitCode);
        IExecutionStrategy runLast = new CommandLine.RunLast();
        cl.setExecutionStrategy(parsed -> {
            try {
                return runLast.execute(parsed);
            } catch (OutOfMemoryError e) {
                return FailureHandler.onOutOfMemory(e, parsed.commandSpec().commandLine());
            }
        });
        cl.setUsageHelpAutoWidth(true);
        return cl;
    }
}
