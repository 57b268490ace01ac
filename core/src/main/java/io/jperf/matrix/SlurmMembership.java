package io.jperf.matrix;

import java.util.List;
import java.util.Map;

/**
 * The membership of a Slurm job step started with one task per node
 * ({@code srun -N <n> --ntasks-per-node=1 jperf matrix ...}): rank {@code SLURM_PROCID}, hosts
 * {@code SLURM_STEP_NODELIST} (else {@code SLURM_JOB_NODELIST}) expanded from Slurm's hostlist
 * syntax ({@link SlurmHostlist}), whose length must equal {@code SLURM_NTASKS}. With one task per
 * node Slurm's block distribution gives task {@code i} the {@code i}-th node of the list. Stateless.
 */
public final class SlurmMembership {
    static final String PROCID = "SLURM_PROCID";
    static final String NTASKS = "SLURM_NTASKS";
    static final String STEP_NODELIST = "SLURM_STEP_NODELIST";
    static final String JOB_NODELIST = "SLURM_JOB_NODELIST";

    private SlurmMembership() {
    }

    /**
     * @throws MembershipException naming the variable that is missing or malformed, or the mismatch
     *         between the task count and the node list
     */
    public static ClusterMembership from(Map<String, String> env) {
        int rank = Members.nonNegative(env, PROCID);
        int tasks = Members.nonNegative(env, NTASKS);
        String listName = env.get(STEP_NODELIST) != null && !env.get(STEP_NODELIST).isBlank() ? STEP_NODELIST
                : JOB_NODELIST;
        String list = env.get(listName);
        if (list == null || list.isBlank()) {
            throw new MembershipException("neither " + STEP_NODELIST + " nor " + JOB_NODELIST + " is set: run jperf"
                    + " matrix through srun inside an allocation");
        }
        List<String> hosts;
        try {
            hosts = SlurmHostlist.expand(list);
        } catch (IllegalArgumentException e) {
            throw new MembershipException(listName + "='" + list + "': " + e.getMessage());
        }
        if (tasks != hosts.size()) {
            throw new MembershipException(NTASKS + "=" + tasks + " but " + listName + " names " + hosts.size()
                    + " node" + (hosts.size() == 1 ? "" : "s") + ": jperf matrix needs exactly one task per node"
                    + " (srun -N " + hosts.size() + " --ntasks-per-node=1)");
        }
        return Members.of(hosts, rank, "slurm (" + listName + ")", PROCID);
    }
}
