package io.jperf.wire;

/**
 * The buffer layout both sides agree on: perftest takes the larger page size ("cycle buffer") and the
 * larger cache line size of the two ends.
 *
 * @param pageSize bytes
 * @param cacheLineSize bytes
 */
public record PageAndCacheLine(int pageSize, int cacheLineSize) {
}
