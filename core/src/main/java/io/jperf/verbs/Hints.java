package io.jperf.verbs;

import java.nio.file.Files;
import java.nio.file.Path;

/** Actionable hints for failed verbs calls, keyed by call and errno. */
public final class Hints {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;
    static final int ETIMEDOUT = 110;

    private static final Path SYS_INFINIBAND = Path.of("/sys/class/infiniband");

    private Hints() {
    }

    /** A hint for the given call and errno; never null, may be empty. */
    public static String forCall(String call, int errno) {
        return switch (errno) {
            case ENOSYS, ENODEV -> call.startsWith("ibv_get_device_list") || call.startsWith("rdma_create_event_channel")
                    ? noRdmaHint()
                    : "the device went away or its driver does not support this call";
            case ENOMEM -> call.contains("reg_mr")
                    ? "memory registration pins pages and is limited by the memlock limit: check `ulimit -l`"
                      + " (raise it in /etc/security/limits.conf or run with `ulimit -l unlimited`)"
                    : "out of device or pinned memory: reduce queue depths / QP count, or raise `ulimit -l`";
            case EPERM, EACCES -> "permission denied on /dev/infiniband/uverbs*: run as root or add the user to the"
                    + " group owning the device (often 'rdma'), and check `ulimit -l`";
            case EINVAL -> call.contains("modify_qp")
                    ? "a QP attribute was refused: check the GID index (-x) exists on this port, the MTU (-m) is not"
                      + " above the port's active MTU, and the port is ACTIVE"
                    : "an argument was refused by the driver: check device limits (`jperf devices -v`)";
            case ETIMEDOUT -> "the peer did not answer in time: check it is running, reachable on this address, and"
                    + " that the route to it leaves through the RDMA netdev (`ip route get <peer>`)";
            default -> "";
        };
    }

    /** Why there are no RDMA devices here, and what to do about it. */
    public static String noRdmaHint() {
        if (!Files.isDirectory(SYS_INFINIBAND)) {
            return "this kernel has no RDMA support (/sys/class/infiniband does not exist). Use a kernel with"
                    + " InfiniBand/RDMA support and load your NIC's driver (e.g. mlx5_ib), or try jperf without"
                    + " RDMA hardware in the project's soft-RoCE lab: lab/rdma-lab setup && lab/rdma-lab demo";
        }
        return "no RDMA device is registered. Load your NIC's RDMA driver (e.g. `modprobe mlx5_ib`), or create a"
                + " soft-RoCE device: `modprobe rdma_rxe && rdma link add rxe0 type rxe netdev <eth>`";
    }
}
