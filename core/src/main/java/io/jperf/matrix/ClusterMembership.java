package io.jperf.matrix;

import java.util.List;
import java.util.Map;

/**
 * Who takes part in a matrix run and which of them this process is: the ordered host list (the
 * same on every member) and this member's rank in it. Rank 0 coordinates; every member, rank 0
 * included, also serves as an agent. The scheduler that launched the run decides both (Slurm's
 * environment, a Kubernetes Indexed Job's, or {@code --hosts}/{@code --rank} by hand): jperf runs
 * no membership protocol of its own.
 *
 * <p>Implementations are immutable values and safe to share between threads.
 */
public interface ClusterMembership {

    /** This member's index in {@link #hosts()}, 0 for the coordinator. */
    int rank();

    /** Every member's host name or address, in rank order; at least one, no duplicates. */
    List<String> hosts();

    /** Where the membership came from, for messages: {@code "slurm"}, {@code "kubernetes"} or {@code "--hosts"}. */
    String source();

    /** The number of members. */
    default int size() {
        return hosts().size();
    }

    /** The coordinator's host: rank 0. */
    default String coordinator() {
        return hosts().getFirst();
    }

    /** True for rank 0. */
    default boolean isCoordinator() {
        return rank() == 0;
    }

    /** This member's own host. */
    default String self() {
        return hosts().get(rank());
    }

    /**
     * The membership the environment describes: Slurm's when {@code SLURM_PROCID} is set, else a
     * Kubernetes Indexed Job's when {@code JOB_COMPLETION_INDEX} is set.
     *
     * @throws MembershipException when neither is set, or a variable is missing or malformed
     */
    static ClusterMembership fromEnvironment(Map<String, String> env) {
        if (env.containsKey(SlurmMembership.PROCID)) {
            return SlurmMembership.from(env);
        }
        if (env.containsKey(KubernetesMembership.INDEX)) {
            return KubernetesMembership.from(env);
        }
        throw new MembershipException("no cluster membership: neither Slurm's " + SlurmMembership.PROCID
                + " (run under `srun -N <n> --ntasks-per-node=1 jperf matrix ...`) nor a Kubernetes Indexed Job's "
                + KubernetesMembership.INDEX + " is set; by hand, give --hosts a,b,c and --rank N");
    }

    /**
     * An explicit membership, e.g. from {@code --hosts a,b,c --rank 1}.
     *
     * @throws MembershipException when the list is empty, repeats a host or the rank is outside it
     */
    static ClusterMembership explicit(List<String> hosts, int rank) {
        return Members.of(hosts, rank, "--hosts", "--rank");
    }
}
