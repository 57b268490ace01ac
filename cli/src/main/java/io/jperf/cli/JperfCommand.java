package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
            "4:a verbs or RDMA CM call failed (the message names the call, errno and a hint)",
            "70:internal error (a bug; printed with its stack trace)"})
public final class JperfCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The configured command line: subcommands, exit-code mapping and error handlers. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new JperfCommand());
        cl.setExecutionExceptionHandler(new FailureHandler());
        cl.setParameterExceptionHandler(FailureHandler::onParameterError);
        cl.setExitCodeExceptionMapper(FailureHandler::exitCode);
        cl.setUsageHelpAutoWidth(true);
        return cl;
    }
}
