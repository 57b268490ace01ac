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
 * {@link io.jperf.matrix.MatrixHtmlReport} render it; {@link io.jperf.matrix.DryRun} computes what a run
 * would take.
 *
 * <p>A run: every member is a {@link io.jperf.matrix.MatrixMember} ({@code jperf serve} for the
 * server ends, a {@link io.jperf.matrix.MatrixAgent} for the client ends, both behind the shared
 * secret); rank 0's {@link io.jperf.matrix.MatrixCoordinator} sends each test to its client's agent
 * over the authenticated jperf extension exchange, and the agent's {@link io.jperf.matrix.PairRunner}
 * ({@link io.jperf.matrix.PerfTestRunner} in production) runs it against the server's serve.
 *
 * <p>Memberships, schedules and analyses are immutable values; the result matrix is filled
 * concurrently (see its comment); the member, agent and coordinator do I/O and document their
 * threads.
 */
package io.jperf.matrix;
