package io.jperf.engine;

import io.jperf.datapath.CompletionStatus;

/**
 * Counts failed work completions by status inside a loop without allocating, and describes them
 * afterwards: the first failure (the cause; what follows is usually flush errors) with its
 * decoded status and hint, then the count per status.
 *
 * <p>Threading: confined to the loop's thread.
 */
public final class CompletionErrors {
    private static final int STATUSES = 32;
    private final long[] byStatus = new long[STATUSES];
    private long total;
    private int firstStatus = -1;
    private int firstVendorError;
    private long firstWrId;
    private int postErrno;

    /** No failures counted yet. */
    public CompletionErrors() {
    }

    void completionFailed(int status, int vendorError, long wrId) {
        if (total == 0) {
            firstStatus = status;
            firstVendorError = vendorError;
            firstWrId = wrId;
        }
        total++;
        byStatus[status >= 0 && status < STATUSES ? status : STATUSES - 1]++;
    }

    void postFailed(int errno) {
        if (postErrno == 0) {
            postErrno = errno;
        }
    }

    void reset() {
        java.util.Arrays.fill(byStatus, 0);
        total = 0;
        firstStatus = -1;
        firstVendorError = 0;
        firstWrId = 0;
        postErrno = 0;
    }

    /** Failed completions counted. */
    public long total() {
        return total;
    }

    /** The errno of the first failed post, 0 when every post succeeded. */
    public int postErrno() {
        return postErrno;
    }

    public boolean any() {
        return total > 0 || postErrno != 0;
    }

    /** A summary a person can act on, or the empty string when nothing failed. */
    public String describe() {
        if (!any()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        if (postErrno != 0) {
            sb.append("ibv_post_send failed: errno ").append(postErrno).append(' ')
                    .append(io.jperf.ffi.Errno.name(postErrno)).append(" (").append(io.jperf.ffi.Errno.describe(postErrno))
                    .append(")");
            if (total > 0) {
                sb.append("; ");
            }
        }
        if (total > 0) {
            sb.append(total).append(" work completion").append(total == 1 ? "" : "s").append(" failed; the first: ")
                    .append(CompletionStatus.describe(firstStatus))
                    .append(" [vendor error 0x").append(Integer.toHexString(firstVendorError))
                    .append(", wr_id 0x").append(Long.toHexString(firstWrId)).append(']');
            StringBuilder counts = new StringBuilder();
            for (int s = 0; s < STATUSES; s++) {
                if (byStatus[s] > 0) {
                    counts.append(counts.isEmpty() ? "" : ", ").append(CompletionStatus.name(s)).append(" x")
                            .append(byStatus[s]);
                }
            }
            sb.append("; by status: ").append(counts);
        }
        return sb.toString();
    }
}
