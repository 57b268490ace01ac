/**
 * {@code jperf matrix}: write tests between every pair (or a pattern of pairs) of the hosts of a
 * cluster allocation, per rail, and which host or rail is bad.
 *
 * <p>{@link io.jperf.matrix.ClusterMembership} says who takes part and which member this process
 * is (from Slurm's or a Kubernetes Indexed Job's environment, or by hand); rank 0 coordinates.
 *
 * <p>Memberships are immutable values.
 */
package io.jperf.matrix;
