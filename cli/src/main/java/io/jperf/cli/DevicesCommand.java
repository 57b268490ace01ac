package io.jperf.cli;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RdmaUnavailableException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code jperf devices}: the RDMA devices here and how they map onto Linux.
 *
 * <p>Its model is built in code ({@link #spec}) rather than from picocli's annotations, as the other commands'
 * are: {@code jperf devices} is a command a person waits for, and the first annotation a JVM reads costs tens of
 * milliseconds of start-up (see {@link JperfCommand}). It is the same model {@code @Command(name = "devices",
 * mixinStandardHelpOptions = true)} with the three {@code @Option} fields would make.
 */
final class DevicesCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Lists RDMA devices with their ports and GID tables: GID type (IB / RoCE v1 / RoCE v2),"
            + " the Linux netdev and the IP address each GID stands for. The GID marked '*' is the one"
            + " write-bw/write-lat (and perftest) choose by default on that port.";

    /** This command's model: its options hold the values parsed. */
    final CommandSpec spec = CommandSpec.wrapWithoutInspection(this).name("devices");

    DevicesCommand() {
        spec.usageMessage().description(SUMMARY);
        spec.addOption(OptionSpec.builder("-d", "--ib-dev").type(String.class).paramLabel("DEV")
                .description("Only this device.").build());
        spec.addOption(OptionSpec.builder("-v", "--verbose").type(boolean.class)
                .description("Device limits and the full GID table (link-local and IPv6 too).").build());
        spec.addOption(OptionSpec.builder("--json").type(boolean.class).description("Print JSON instead of text.").build());
        StandardHelpOptions.addTo(spec);
    }

    /** The value parsed for the option named {@code name} (any of its names; Spellings may have replaced it). */
    private Object option(String name) {
        return spec.findOption(name).getValue();
    }

    @Override
    public Integer call() {
        String device = (String) option("--ib-dev");
        boolean verbose = Boolean.TRUE.equals(option("--verbose"));
        boolean json = Boolean.TRUE.equals(option("--json"));
        List<DeviceInfo> devices = Rdma.devices();
        if (device != null) {
            devices = devices.stream().filter(d -> d.name().equals(device)).toList();
            if (devices.isEmpty()) {
                throw new RdmaUnavailableException("no RDMA device named '" + device + "'; devices here: "
                        + String.join(", ", Rdma.devices().stream().map(DeviceInfo::name).toList()));
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(DevicesView.json(devices));
        } else {
            out.print(DevicesView.text(devices, verbose));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
