package io.jperf.result;

/**
 * One message size's latency figures in microseconds (half round trip), as perftest prints them in a row
 * of its latency table. Immutable.
 *
 * @param sizeBytes message size
 * @param iterations the iteration count of the run (perftest prints {@code -n}, not the sample count)
 * @param minUs smallest sample
 * @param maxUs perftest's t_max: the second largest sample (the two largest are dropped and the first
 *     dropped one is printed)
 * @param typicalUs median of the kept samples
 * @param avgUs mean of the kept samples
 * @param stdevUs population standard deviation of the kept samples (exact; perftest 6.06 truncates the
 *     terms to whole microseconds)
 * @param p99Us sample at index ceil(n x 0.99) of the sorted samples, n = kept samples
 * @param p999Us sample at index ceil(n x 0.999)
 */
public record LatencyResult(long sizeBytes, long iterations, double minUs, double maxUs, double typicalUs,
                            double avgUs, double stdevUs, double p99Us, double p999Us) {
}
