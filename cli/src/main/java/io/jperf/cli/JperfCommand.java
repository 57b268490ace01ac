package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.Model.CommandSpec;

import java.util.concurrent.Callable;

/**
 * The root command: {@code jperf <subcommand>}.
 *
 * <p>Start-up: the subcommands are added here rather than listed in the annotation, so that a run builds the
 * full picocli model (every option of every mixin, read by reflection) only for the subcommand it runs, and
 * for {@code --help} none at all, see {@link #commandLineFor}. The root itself and the subcommands it only
 * lists are built without reading any annotation: the first annotation read in a JVM makes the JDK generate a
 * proxy class per annotation type, tens of milliseconds, so {@code jperf --help} and {@code --version} read
 * none. A listed subcommand's line is its class's {@code SUMMARY}, the constant its {@code @Command}
 * description starts with.
 */
public final class JperfCommand implements Callable<Integer> {
    /** The subcommands' names, in the order {@code jperf --help} lists them (then {@code help}). */
    static final String[] SUBCOMMANDS = {"devices", "write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat",
        "atomic-bw", "atomic-lat", "serve", "sweep", "doctor", "matrix"};
    /** The subcommands that stand for a perftest program: they refuse the perftest flags they lack. */
    static final java.util.List<String> TEST_COMMANDS = java.util.List.of("write-bw", "write-lat", "read-bw", "read-lat", "send-bw", "send-lat",
        "atomic-bw", "atomic-lat");
    /** The root's description in its usage. */
    private static final String DESCRIPTION =
            "RDMA performance tests from Java, perftest-compatible, with the Linux path each result ran on.";
    /**
     * What the root's usage lists for {@code help}: the header of picocli's {@link CommandLine.HelpCommand}
     * (JperfCommandTest compares the listing with the real one's).
     */
    static final String HELP_SUMMARY = "Display help information about the specified command.";

    /** This command's model, set by {@link #build}. */
    private CommandSpec spec;

    /** No subcommand: the usage on stderr and exit 2, as for any other incomplete command line. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("jperf: a command is required");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** The configured command line with every subcommand's full model. */
    static CommandLine commandLine() {
        return build(null, true, true);
    }

    /**
     * The configured command line for running {@code args}, with only the models the run can use.
     * <ul>
     * <li>No subcommand named ({@code --help}, {@code --version}, nothing, an option error at the root): the
     * root alone; its usage lists the subcommands from their names and summaries ({@link ListingHelp}).</li>
     * <li>The first word names a subcommand: the root and that subcommand's full model; nothing the run does
     * reaches a sibling (its errors point at {@code jperf NAME --help}).</li>
     * <li>Anything else (a mistyped name, root options before the name): the named subcommand's full model and
     * the others listed by name and description, which is all the root's usage and picocli's suggestions for a
     * mistyped name need. {@code jperf help <command>} gets every model.</li>
     * </ul>
     * Parsing, help and errors are the same as with {@link #commandLine()} (JperfCommandTest compares them).
     * Each subcommand left out saves its picocli command line: a parser with every built-in converter
     * registered by reflection, and a usage model; in the interpreter, 1-2 ms each.
     */
    static CommandLine commandLineFor(String... args) {
        String named = null;
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                named = arg;
                break;
            }
        }
        if (named == null) {
            return build(null, false, false);
        }
        if (args[0].equals(named) && java.util.Arrays.asList(SUBCOMMANDS).contains(named)) {
            return build(named, false, false);
        }
        return build(named, "help".equals(named), true);
    }

    /**
     * @param fullModelOf the subcommand whose full model is built, or null
     * @param allFull every subcommand's full model
     * @param listOthers the subcommands without a full model are added with their name and summary; without
     *                   them and without {@code fullModelOf}, the root's usage lists them all ({@link ListingHelp})
     */
    private static CommandLine build(String fullModelOf, boolean allFull, boolean listOthers) {
        CommandSpec root = rootSpec();
        CommandLine cl = new CommandLine(root);
        for (String name : SUBCOMMANDS) {
            if (allFull || name.equals(fullModelOf)) {
                cl.addSubcommand(name, newSubcommand(name));
            } else if (listOthers) {
                cl.addSubcommand(name, listedOnly(name, summary(name)));
            }
        }
        for (String name : TEST_COMMANDS) {
            if (allFull || name.equals(fullModelOf)) {
                PerftestFlags.addRefusals(cl.getSubcommands().get(name));
            }
        }
        cl.getSubcommands().values().forEach(Spellings::addAlternates);
        ExitCodes.addHelpSections(cl);
        if (allFull || "help".equals(fullModelOf)) {
            cl.addSubcommand("help", new CommandLine.HelpCommand());
        } else if (listOthers) {
            cl.addSubcommand("help", listedOnly("help", HELP_SUMMARY));
        } else if (fullModelOf == null) {
            root.usageMessage().helpFactory(ListingHelp::new);
        }
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
            case "devices" -> new CommandLine(new DevicesCommand().spec);
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

    /** The line the root's usage lists for subcommand {@code name}: the first line of its description. */
    private static String summary(String name) {
        return switch (name) {
            case "devices" -> DevicesCommand.SUMMARY;
            case "write-bw" -> WriteBwCommand.SUMMARY;
            case "write-lat" -> WriteLatCommand.SUMMARY;
            case "read-bw" -> ReadBwCommand.SUMMARY;
            case "read-lat" -> ReadLatCommand.SUMMARY;
            case "send-bw" -> SendBwCommand.SUMMARY;
            case "send-lat" -> SendLatCommand.SUMMARY;
            case "atomic-bw" -> AtomicBwCommand.SUMMARY;
            case "atomic-lat" -> AtomicLatCommand.SUMMARY;
            case "serve" -> ServeCommand.SUMMARY;
            case "sweep" -> SweepCommand.SUMMARY;
            case "doctor" -> DoctorCommand.SUMMARY;
            case "matrix" -> MatrixCommand.SUMMARY;
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /**
     * The root's model, as {@code @Command(name = "jperf", mixinStandardHelpOptions = true, versionProvider =
     * VersionProvider.class)} would make it, built without reading an annotation.
     */
    private static CommandSpec rootSpec() {
        JperfCommand command = new JperfCommand();
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name("jperf");
        spec.versionProvider(new VersionProvider());
        spec.usageMessage().description(DESCRIPTION);
        StandardHelpOptions.addTo(spec);
        command.spec = spec;
        return spec;
    }

    /** A subcommand as the root's usage lists it: its name and the first line of its description, no options. */
    private static CommandLine listedOnly(String name, String summary) {
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage().description(summary);
        return new CommandLine(spec);
    }

    /**
     * The root's usage when no subcommand is added: the synopsis ends in {@code [COMMAND]} and the command list
     * shows every subcommand's name and summary, laid out as picocli's own {@code commandList} lays out added
     * subcommands.
     */
    private static final class ListingHelp extends CommandLine.Help {
        ListingHelp(CommandSpec spec, CommandLine.Help.ColorScheme colorScheme) {
            super(spec, colorScheme);
        }

        @Override
        protected CommandLine.Help.Ansi.Text createDetailedSynopsisCommandText() {
            return ansi().new Text(0).concat(" ").concat(commandSpec().usageMessage().synopsisSubcommandLabel());
        }

        @Override
        public String commandListHeading(Object... params) {
            return createHeading(commandSpec().usageMessage().commandListHeading(), params);
        }

        @Override
        public String commandList() {
            java.util.Map<String, String> rows = new java.util.LinkedHashMap<>();
            for (String name : SUBCOMMANDS) {
                rows.put(name, summary(name));
            }
            rows.put("help", HELP_SUMMARY);
            int width = commandSpec().usageMessage().width();
            int nameLength = Math.min(rows.keySet().stream().mapToInt(String::length).max().orElse(0), width / 2);
            CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(colorScheme().ansi(),
                    new CommandLine.Help.Column(nameLength + 2, 2, CommandLine.Help.Column.Overflow.SPAN),
                    new CommandLine.Help.Column(width - (nameLength + 2), 2, CommandLine.Help.Column.Overflow.WRAP));
            table.setAdjustLineBreaksForWideCJKCharacters(
                    commandSpec().usageMessage().adjustLineBreaksForWideCJKCharacters());
            rows.forEach((name, summary) -> {
                CommandLine.Help.Ansi.Text[] lines = colorScheme().text(String.format(summary)).splitLines();
                for (int i = 0; i < lines.length; i++) {
                    table.addRowValues(i == 0 ? colorScheme().commandText(name) : ansi().new Text(0), lines[i]);
                }
            });
            return table.toString();
        }
    }
}
