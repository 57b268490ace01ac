package io.jperf.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Stack;

/**
 * Every flag perftest 6.29's parser knows ({@code perftest_parameters.c}: its {@code getopt} letters and
 * {@code long_options}), so that a perftest flag a jperf test command does not have is refused with a
 * one-line message naming it (exit 2, nothing touched), never silently ignored and never picocli's
 * generic "Unknown option". {@link #addRefusals} gives a command one hidden option per flag it lacks;
 * the flags it has are its own options. {@code docs/perftest-flags.md} is the table of what write-bw
 * and write-lat do with each flag of ib_write_bw and ib_write_lat (a test checks it against the parser).
 *
 * <p>Stateless; the catalogue is immutable.
 */
final class PerftestFlags {
    private PerftestFlags() {
    }

    /** The perftest programs jperf's test commands stand for. */
    enum Program {
        WRITE_BW("write-bw", "ib_write_bw"), WRITE_LAT("write-lat", "ib_write_lat"),
        READ_BW("read-bw", "ib_read_bw"), READ_LAT("read-lat", "ib_read_lat"),
        ATOMIC_BW("atomic-bw", "ib_atomic_bw"), ATOMIC_LAT("atomic-lat", "ib_atomic_lat");

        final String command;
        final String perftest;

        Program(String command, String perftest) {
            this.command = command;
            this.perftest = perftest;
        }

        static Program of(String command) {
            for (Program p : values()) {
                if (p.command.equals(command)) {
                    return p;
                }
            }
            return null;
        }
    }

    private static final Set<Program> ALL = EnumSet.allOf(Program.class);
    private static final Set<Program> BW = EnumSet.of(Program.WRITE_BW, Program.READ_BW, Program.ATOMIC_BW);
    private static final Set<Program> LAT = EnumSet.of(Program.WRITE_LAT, Program.READ_LAT, Program.ATOMIC_LAT);
    private static final Set<Program> WRITE = EnumSet.of(Program.WRITE_BW, Program.WRITE_LAT);
    /** READ and ATOMIC: perftest lists -o for both, and -e/-X for every verb but WRITE. */
    private static final Set<Program> READ_ATOMIC = EnumSet.of(Program.READ_BW, Program.READ_LAT, Program.ATOMIC_BW,
            Program.ATOMIC_LAT);
    private static final Set<Program> ATOMIC = EnumSet.of(Program.ATOMIC_BW, Program.ATOMIC_LAT);
    /** Flags of other perftest programs (send, raw Ethernet): in none of these six. */
    private static final Set<Program> NONE = EnumSet.noneOf(Program.class);

    /**
     * One perftest flag.
     *
     * @param shortName e.g. {@code -W}, or null
     * @param longName e.g. {@code --report-counters}, or null
     * @param takesValue whether perftest's parser takes a value with it
     * @param programs the programs whose usage lists it (perftest 6.29, RC)
     * @param notApplicable why the flag cannot apply to jperf, or null when jperf just does not have it yet; for
     *     a flag of no program here, a hint added to its refusal
     */
    record Flag(String shortName, String longName, boolean takesValue, Set<Program> programs, String notApplicable) {
        /** {@code -W/--report-counters}, {@code --odp}, {@code -Z}. */
        String display() {
            return shortName == null ? longName : longName == null ? shortName : shortName + "/" + longName;
        }

        List<String> names() {
            List<String> names = new ArrayList<>(2);
            if (shortName != null) {
                names.add(shortName);
            }
            if (longName != null) {
                names.add(longName);
            }
            return names;
        }

        /** The one line a command refuses it with. */
        String refusal(Program program) {
            if (program != null && !programs.contains(program)) {
                return display() + ": not a flag of perftest's " + program.perftest + ", and jperf " + program.command
                        + " does not support it either (" + (programs.isEmpty() && notApplicable != null
                        ? notApplicable + "; " : "") + "docs/perftest-flags.md lists perftest's flags)";
            }
            if (notApplicable != null) {
                return display() + ": perftest's flag does not apply to jperf (" + notApplicable
                        + "), so jperf does not support it";
            }
            String why = longName == null ? null : NOT_YET.get(longName);
            return display() + ": jperf does not support this perftest flag yet (" + (why == null ? "" : why + "; ")
                    + "docs/perftest-flags.md lists what jperf supports)";
        }
    }

    /** Why a flag jperf lacks cannot be supported as perftest does it yet: added to its refusal. */
    private static final Map<String, String> NOT_YET = Map.of("--odp", "perftest checks the device's On-Demand"
            + " Paging capabilities with ibv_query_device_ex (odp_caps) before registering with IBV_ACCESS_ON_DEMAND;"
            + " jperf's generated bindings have no struct ibv_device_attr_ex, ibv_odp_caps or IBV_ODP_SUPPORT_*,"
            + " and ibv_query_device_ex is a static inline function jextract does not bind");

    private static Flag f(String s, String l, boolean value, Set<Program> programs) {
        return new Flag(s, l, value, programs, null);
    }

    /** Every flag of perftest 6.29's parser, in its {@code long_options} order. */
    static final List<Flag> CATALOGUE = List.of(
            f("-p", "--port", true, ALL),
            f("-d", "--ib-dev", true, ALL),
            f("-i", "--ib-port", true, ALL),
            f("-m", "--mtu", true, ALL),
            f("-s", "--size", true, ALL),
            f("-n", "--iters", true, ALL),
            f("-t", "--tx-depth", true, BW),
            f("-u", "--qp-timeout", true, ALL),
            f("-S", "--sl", true, ALL),
            f("-x", "--gid-index", true, ALL),
            f("-a", "--all", false, ALL),
            f("-F", "--CPU-freq", false, ALL),
            f("-c", "--connection", true, ALL),
            f("-q", "--qp", true, BW),
            f("-e", "--events", false, READ_ATOMIC),
            f("-X", "--vector", true, READ_ATOMIC),
            f("-I", "--inline_size", true, WRITE),
            f("-o", "--outs", true, READ_ATOMIC),
            f("-g", "--mcg", false, NONE),
            f("-z", "--comm_rdma_cm", false, ALL),
            f("-R", "--rdma_cm", false, ALL),
            f("-T", "--tos", true, ALL),
            f("-L", "--hop_limit", true, ALL),
            f("-h", "--help", false, ALL),
            f("-M", "--MGID", true, NONE),
            f("-r", "--rx-depth", true, NONE),
            f("-b", "--bidirectional", false, BW),
            f("-Q", "--cq-mod", true, BW),
            f("-N", "--noPeak", false, BW),
            f("-V", "--version", false, ALL),
            new Flag("-C", "--report-cycles", false, LAT,
                    "it reports microseconds from the monotonic clock; there are no CPU cycles to report"),
            f("-H", "--report-histogrm", false, LAT),
            new Flag(null, "--report-histogram", false, NONE, "perftest's help prints it for -H, but its parser"
                    + " knows only -H and --report-histogrm (sic), which jperf's latency commands take"),
            f("-U", "--report-unsorted", false, LAT),
            f("-A", "--atomic_type", true, ATOMIC),
            f("-O", "--dualport", false, BW),
            f("-l", "--post_list", true, BW),
            f("-D", "--duration", true, ALL),
            f("-f", "--margin", true, ALL),
            f("-B", "--source_mac", true, NONE),
            f("-E", "--dest_mac", true, NONE),
            f("-J", "--dest_ip", true, NONE),
            f("-j", "--source_ip", true, NONE),
            f("-K", "--dest_port", true, NONE),
            f("-k", "--source_port", true, NONE),
            f("-Y", "--ethertype", true, NONE),
            f("-w", "--limit_bw", true, BW),
            f("-y", "--limit_msgrate", true, BW),
            f("-Z", "--server", false, NONE),
            f("-P", "--client", false, NONE),
            f("-v", "--mac_fwd", false, NONE),
            f("-G", "--use_rss", false, NONE),
            f("-W", "--report-counters", true, ALL),
            f(null, "--force-link", true, ALL),
            f(null, "--remote_mac", true, NONE),
            f(null, "--local_mac", true, NONE),
            f(null, "--remote_ip", true, NONE),
            f(null, "--local_ip", true, NONE),
            f(null, "--remote_port", true, NONE),
            f(null, "--local_port", true, NONE),
            f(null, "--run_infinitely", false, BW),
            f(null, "--report_gbits", false, BW),
            f(null, "--use-srq", false, NONE),
            f(null, "--no_lock", false, ALL),
            f(null, "--use-null-mr", false, EnumSet.complementOf(EnumSet.copyOf(ATOMIC))),
            f(null, "--report-both", false, BW),
            f(null, "--reversed", false, BW),
            f(null, "--pkey_index", true, ALL),
            f(null, "--tcp", false, NONE),
            f(null, "--burst_size", true, BW),
            f(null, "--typical_pkt_size", true, BW),
            f(null, "--rate_limit", true, BW),
            f(null, "--rate_limit_type", true, BW),
            f(null, "--rate_units", true, BW),
            f(null, "--output", true, ALL),
            f(null, "--cpu_util", false, ALL),
            f(null, "--out_json", false, ALL),
            f(null, "--out_json_file", true, ALL),
            f(null, "--latency_gap", true, LAT),
            f(null, "--flow_label", true, ALL),
            f(null, "--retry_count", true, ALL),
            f(null, "--dont_xchg_versions", false, ALL),
            f(null, "--payload_file_path", true, EnumSet.of(Program.WRITE_BW, Program.READ_BW, Program.READ_LAT,
                    Program.ATOMIC_BW, Program.ATOMIC_LAT)),
            f(null, "--use_cuda", true, ALL),
            f(null, "--use_cuda_bus_id", true, ALL),
            f(null, "--use_cuda_dmabuf", false, ALL),
            f(null, "--use_cuda_pcie_mapping", false, ALL),
            f(null, "--use_data_direct", false, ALL),
            f(null, "--cuda_mem_type", true, ALL),
            f(null, "--use_rocm", true, ALL),
            f(null, "--use_rocm_dmabuf", false, ALL),
            f(null, "--use_neuron", true, ALL),
            f(null, "--use_neuron_dmabuf", false, ALL),
            f(null, "--use_hl", true, ALL),
            f(null, "--use_mlu", true, ALL),
            f(null, "--use_mlu_dmabuf", false, ALL),
            f(null, "--use_opencl", true, ALL),
            f(null, "--opencl_platform_id", true, ALL),
            f(null, "--use_ib_dm_dmabuf", true, ALL),
            f(null, "--gpu_touch", true, ALL),
            f(null, "--mmap", true, ALL),
            f(null, "--mmap-offset", true, ALL),
            f(null, "--ipv6", false, ALL),
            f(null, "--ipv6-addr", false, ALL),
            f(null, "--raw_ipv6", false, NONE),
            f(null, "--report-per-port", false, BW),
            f(null, "--odp", false, ALL),
            f(null, "--use_hugepages", false, ALL),
            f(null, "--use_old_post_send", false, ALL),
            f(null, "--promiscuous", false, NONE),
            f(null, "--sniffer", false, NONE),
            f(null, "--raw_mcast", false, NONE),
            f(null, "--mr_per_qp", false, BW),
            f(null, "--dlid", true, ALL),
            f(null, "--tclass", true, ALL),
            f(null, "--wait_destroy", true, BW),
            f(null, "--flows", true, NONE),
            f(null, "--flows_burst", true, NONE),
            f(null, "--reply_every", true, NONE),
            f(null, "--perform_warm_up", false, ALL),
            f(null, "--vlan_en", false, NONE),
            f(null, "--vlan_pcp", true, NONE),
            f(null, "--recv_post_list", true, BW),
            f(null, "--aes_xts", false, ALL),
            f(null, "--encrypt_on_tx", false, ALL),
            f(null, "--sig_before", false, ALL),
            f(null, "--aes_block_size", true, ALL),
            f(null, "--kek_path", true, ALL),
            f(null, "--credentials_path", true, ALL),
            f(null, "--data_enc_keys_number", true, ALL),
            f(null, "--data_enc_key_app_path", true, ALL),
            f(null, "--log_dci_streams", true, ALL),
            f(null, "--log_active_dci_streams", true, ALL),
            f(null, "--disable_pcie_relaxed", false, BW),
            f(null, "--use_ooo", false, ALL),
            f(null, "--congest_type", true, ALL),
            f(null, "--bind_source_ip", true, ALL),
            f(null, "--write_with_imm", false, WRITE),
            f(null, "--send_with_imm", false, NONE),
            f(null, "--no_enhanced_reorder", false, ALL),
            f(null, "--unsolicited_write", false, WRITE),
            f(null, "--connectionless", false, NONE),
            f(null, "--cqe_poll", true, ALL),
            f(null, "--tph_mem", true, ALL),
            f(null, "--cpu_id", true, ALL),
            f(null, "--ph", true, ALL),
            f(null, "--disable_dynamic_polling", false, BW),
            f(null, "--sig_offload", false, ALL),
            f(null, "--data_validation", false, BW),
            f(null, "--data_validation_debug", false, BW),
            f(null, "--pin_cores", true, ALL),
            f(null, "--numa_node", true, ALL),
            f(null, "--disable_numa", false, ALL));

    /** The catalogue's flag with this name ({@code -W} or {@code --report-counters}), or null. */
    static Flag named(String name) {
        for (Flag flag : CATALOGUE) {
            if (name.equals(flag.shortName()) || name.equals(flag.longName())) {
                return flag;
            }
        }
        return null;
    }

    /**
     * A perftest flag refused while parsing: exit 2 and this one line (no "Try --help" line under it:
     * the line already says what to read).
     */
    static final class Refused extends CommandLine.ParameterException {
        private static final long serialVersionUID = 1L;

        Refused(CommandLine commandLine, String message) {
            super(commandLine, message);
        }
    }

    /** Marks the options {@link #addRefusals} adds, so that tests and docs can tell them from real ones. */
    static final class Refusal implements CommandLine.IParameterConsumer {
        final Flag flag;
        private final String message;

        Refusal(Flag flag, String message) {
            this.flag = flag;
            this.message = message;
        }

        @Override
        public void consumeParameters(Stack<String> args, ArgSpec argSpec, CommandSpec commandSpec) {
            throw new Refused(commandSpec.commandLine(), commandSpec.qualifiedName(" ").replaceFirst("^jperf ", "")
                    + ": " + message);
        }
    }

    /**
     * Gives {@code command} (a test command: write-bw, ..., atomic-lat) a hidden option for
     * every name of a catalogue flag it does not have, which refuses the flag while parsing.
     */
    static void addRefusals(CommandLine command) {
        CommandSpec spec = command.getCommandSpec();
        Program program = Program.of(spec.name());
        Map<String, OptionSpec> taken = spec.optionsMap();
        for (Flag flag : CATALOGUE) {
            List<String> free = flag.names().stream().filter(n -> !taken.containsKey(n)).toList();
            if (free.isEmpty()) {
                continue;
            }
            spec.addOption(OptionSpec.builder(free.toArray(String[]::new))
                    .arity(flag.takesValue() ? "1" : "0")
                    .type(flag.takesValue() ? String.class : boolean.class)
                    .hidden(true)
                    .description("perftest's " + flag.display() + ": refused")
                    .parameterConsumer(new Refusal(flag, flag.refusal(program)))
                    .build());
        }
    }

    /** Whether {@code option} is one {@link #addRefusals} added. */
    static boolean isRefusal(OptionSpec option) {
        return option.parameterConsumer() instanceof Refusal;
    }
}
