package io.jperf.engine;

/**
 * Where each QP's buffers live: a send slice and a receive slice of {@code sliceSize} bytes per QP, all in one
 * memory region (QP {@code q} at {@code 2 * sliceSize * q}), or with perftest's {@code --mr_per_qp} each QP's
 * pair in a region of its own (at offset 0), so that QP {@code q}'s work requests and key message use region
 * {@link #regionOf(int) regionOf(q)}'s keys.
 *
 * @param numQps the QPs ({@code -q})
 * @param sliceSize bytes of one slice (the largest message, at least a page)
 * @param regionPerQp {@code --mr_per_qp}
 */
record BufferLayout(int numQps, long sliceSize, boolean regionPerQp) {
    BufferLayout {
        if (numQps < 1 || sliceSize < 1) {
            throw new IllegalArgumentException("numQps " + numQps + " and sliceSize " + sliceSize
                    + " must be positive");
        }
    }

    /** How many regions to register. */
    int regions() {
        return regionPerQp ? numQps : 1;
    }

    /** The bytes of each region. */
    long regionSize() {
        return sliceSize * 2 * (regionPerQp ? 1 : numQps);
    }

    /** The region holding QP {@code q}'s slices. */
    int regionOf(int q) {
        return regionPerQp ? q : 0;
    }

    /** Where QP {@code q}'s send slice starts in its region. */
    long sendOffset(int q) {
        return regionPerQp ? 0 : sliceSize * 2 * q;
    }

    /** Where QP {@code q}'s receive slice (the one the peer writes to or reads from) starts in its region. */
    long receiveOffset(int q) {
        return sendOffset(q) + sliceSize;
    }
}
