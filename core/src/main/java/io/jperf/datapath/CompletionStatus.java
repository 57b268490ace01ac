package io.jperf.datapath;

import io.jperf.ffi.NativeMemory;
import io.jperf.ffi.generated.rdma_h;

/**
 * Decodes {@code enum ibv_wc_status} values into their names, rdma-core's text and a hint about
 * what usually causes them. Used after the loop, to report the completion errors it counted.
 */
public final class CompletionStatus {
    private static final String[] NAMES = {
        "IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR", "IBV_WC_LOC_EEC_OP_ERR",
        "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
        "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
        "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR", "IBV_WC_REM_INV_RD_REQ_ERR",
        "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR",
        "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR", "IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE"};
    private CompletionStatus() {
    }

    /** {@code IBV_WC_RETRY_EXC_ERR} for 12, {@code IBV_WC_STATUS_<n>} when unknown. */
    public static String name(int status) {
        return status >= 0 && status < NAMES.length ? NAMES[status] : "IBV_WC_STATUS_" + status;
    }

    /** rdma-core's {@code ibv_wc_status_str} text. */
    public static String text(int status) {
        return NativeMemory.cString(rdma_h.ibv_wc_status_str(status), 256);
    }

    /** What usually causes this status and what to check. */
    public static String hint(int status) {
        return switch (status) {
            case 12 -> "the peer never acknowledged: check the GID index (-x) on both ends is the same type"
                    + " (RoCE v2, IPv4-mapped), the route to the peer leaves through the RDMA netdev, and the peer is up";
            case 13 -> "the peer had no receive posted (receiver not ready)";
            case 10 -> "the peer refused the access: remote address or rkey out of the peer's region, or the"
                    + " region lacks REMOTE_WRITE (REMOTE_READ, REMOTE_ATOMIC for read and atomic tests)";
            case 9 -> "the peer refused the request as invalid: an atomic at an address not 8-byte aligned or of"
                    + " other than 8 bytes, or an operation its QP does not allow (no outstanding reads/atomics granted)";
            case 4, 8 -> "a local buffer is outside its registered region, or the lkey is wrong";
            case 1 -> "a message is longer than the posted buffer or the QP's limits";
            case 5 -> "the QP had already gone to the error state; the first error above is the cause";
            case 2 -> "the work request is invalid for this QP (type, state, inline size)";
            default -> "";
        };
    }

    /** One line: {@code IBV_WC_RETRY_EXC_ERR (12, transport retry counter exceeded): hint}. */
    public static String describe(int status) {
        String hint = hint(status);
        return name(status) + " (" + status + ", " + text(status) + ")" + (hint.isEmpty() ? "" : ": " + hint);
    }
}
