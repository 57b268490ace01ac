package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * The root command: {@code jperf <subcommand>}.
 *
 * <p>The subcommands are added here rather than listed in the annotation, so that a run builds the
 * full picocli model (every option of every mixin, read by reflection) only for the subcommand it
 * runs; {@code jperf --help} and {@code jperf devices} start in a fraction of the time. See
 * {@link #commandLineFor}.
 */
@Command(name = "jperf",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "RDMA performance tests from Java, perftest-compatible, with the Linux path each result ran on."},
        exitCodeListHeading = ExitCodes.HEADING)
public final class JperfCommand implements Callable<Integer> {
    /** The subcommands' names, in the order {@code jperf --help} lists them (then {@code help}). */
    static final String[] SUBCOMMANDS = {"devices", "write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat",
        "atomic-bw", "atomic-lat", "serve", "sweep", "doctor", "matrix"};
    /** The subcommands that stand for a perftest program: they refuse the perftest flags they lack. */
    static final java.util.List<String> TEST_COMMANDS = java.util.List.of("write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat",
        "atomic-bw", "atomic-lat");

    @Spec
    CommandSpec spec;

    /** No subcommand: the usage on stderr and exit 2, as for any other incomplete command line. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("jperf: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** The configured command line with every subcommand's full model. */
    static CommandLine commandLine() {
        return build(null, true);
    }

    /**
     * The configured command line for running {@code args}: the subcommand they name (their first
     * word that is not an option) gets its full model; the others are only listed, with their
     * names and descriptions, which is all the root's usage and picocli's suggestions for a
     * mistyped name need. {@code jperf help <command>} gets every model. Parsing, help and errors
     * are the same as with {@link #commandLine()}.
     */
    static CommandLine commandLineFor(String... args) {
        String named = null;
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                named = arg;
                break;
            }
        }
        return build(named, "help".equals(named));
    }

    private static CommandLine build(String fullModelOf, boolean allFull) {
        CommandLine cl = new CommandLine(new JperfCommand());
        for (String name : SUBCOMMANDS) {
            if (allFull || name.equals(fullModelOf)) {
                cl.addSubcommand(name, newSubcommand(name));
            } else {
                cl.addSubcommand(name, listedOnly(subcommandType(name)));
            }
        }
        for (String name : TEST_COMMANDS) {
            if (allFull || name.equals(fullModelOf)) {
                PerftestFlags.addRefusals(cl.getSubcommands().get(name));
            }
        }
        cl.getSubcommands().values().forEach(Spellings::addAlternates);
        ExitCodes.addHelpSections(cl);
        cl.addSubcommand("help", new CommandLine.HelpCommand());
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

    private static Object newSubcommand(String name) {
        return switch (name) {
            case "devices" -> new DevicesCommand();
            case "write-bw" -> new WriteBwCommand();
            case "write-lat" -> new WriteLatCommand();
            case "read-bw" -> new ReadBwCommand();
            case "read-lat" -> new ReadLatCommand();
            case "send-bw" -> new SendBwCommand();
            case "send-lat" -> new SendLatCommand();
            case "atomic-bw" -> new AtomicBwCommand();
            case "atomic-lat" -> new AtomicLatCommand();
            case "serve" -> new ServeCommand();
            case "sweep" -> new SweepCommand();
            case "doctor" -> new DoctorCommand();
            case "matrix" -> new MatrixCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    private static Class<?> subcommandType(String name) {
        return switch (name) {
            case "devices" -> DevicesCommand.class;
            case "write-bw" -> WriteBwCommand.class;
            case "write-lat" -> WriteLatCommand.class;
            case "read-bw" -> ReadBwCommand.class;
            case "read-lat" -> ReadLatCommand.class;
            case "send-bw" -> SendBwCommand.class;
            case "send-lat" -> SendLatCommand.class;
            case "atomic-bw" -> AtomicBwCommand.class;
            case "atomic-lat" -> AtomicLatCommand.class;
            case "serve" -> ServeCommand.class;
            case "sweep" -> SweepCommand.class;
            case "doctor" -> DoctorCommand.class;
            case "matrix" -> MatrixCommand.class;
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /** A subcommand as the root's usage lists it: name, aliases, header and description, no options. */
    private static CommandLine listedOnly(Class<?> type) {
        Command command = type.getAnnotation(Command.class);
        CommandSpec spec = CommandSpec.create().name(command.name()).aliases(command.aliases());
        spec.usageMessage().header(command.header()).description(command.description()).hidden(command.hidden());
        return new CommandLine(spec);
    }
}
