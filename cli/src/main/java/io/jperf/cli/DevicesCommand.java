package io.jperf.cli;

import io.jperf.verbs.DeviceInfo;
import io.jperf.verbs.Rdma;
import io.jperf.verbs.RdmaUnavailableException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code jperf devices}: the RDMA devices here and how they map onto Linux. */
@Command(name = "devices",
        mixinStandardHelpOptions = true,
        description = DevicesCommand.SUMMARY)
final class DevicesCommand implements Callable<Integer> {
    /** The first line of the description: also what {@code jperf --help} lists for this command, without building
     * its model ({@link JperfCommand}). */
    static final String SUMMARY =
            "Lists RDMA devices with their ports and GID tables: GID type (IB / RoCE v1 / RoCE v2),"
            + " the Linux netdev and the IP address each GID stands for. The GID marked '*' is the one"
            + " write-bw/write-lat (and perftest) choose by default on that port.";

    @Spec
    CommandSpec spec;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "Only this device.")
    String device;

    @Option(names = {"-v", "--verbose"}, description = "Device limits and the full GID table (link-local and IPv6 too).")
    boolean verbose;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() {
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
