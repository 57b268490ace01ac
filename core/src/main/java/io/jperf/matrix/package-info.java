/**
 * {@code jperf matrix}: write tests between every pair (or a pattern of pairs) of the hosts of a
 * cluster allocation, per rail, and which host or rail is bad.
 *
 * <p>{@link io.jperf.matrix.ClusterMembership} says who takes part and which member this process
 * is (from Slurm's or a Kubernetes Indexed Job's environment, or by hand); rank 0 coordinates.
 * {@link io.jperf.matrix.Schedule} orders the tests of a {@link io.jperf.matrix.Pattern} on the
 * rail combinations of a {@link io.jperf.matrix.RailMode} in rounds in which each host is in at most
 * one test. The results fill a {@link io.jperf.matrix.ResultMatrix}; {@link io.jperf.matrix.MatrixAnalysis}
 * marks bad links against a {@link io.jperf.matrix.Threshold} and ranks suspect rails, hosts, host
 * rails and links; {@link io.jperf.matrix.MatrixTextReport}, {@link io.jperf.matrix.MatrixJson} and
 * {@link io.jperf.matrix.MatrixHtmlReport} render it.
 *
 * <p>Memberships, schedules and analyses are immutable values; the result matrix is filled
 * concurrently (see its comment).
 */
package io.jperf.matrix;
