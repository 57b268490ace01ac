package io.jperf.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The membership of a Kubernetes Indexed Job whose pods share a headless Service (the recipe in
 * docs/cluster.md): rank {@code JOB_COMPLETION_INDEX} (set by Kubernetes), the member count
 * {@value #COUNT} (the Job's {@code completions}), the Job's name {@value #JOB} and the Service's
 * {@value #SERVICE}, all set by the recipe. Pod {@code i} is reachable as
 * {@code <job>-<i>.<service>} (its hostname is {@code <job>-<i>}, its subdomain the Service).
 * Stateless.
 */
public final class KubernetesMembership {
    static final String INDEX = "JOB_COMPLETION_INDEX";
    static final String COUNT = "JPERF_K8S_COMPLETIONS";
    static final String JOB = "JPERF_K8S_JOB";
    static final String SERVICE = "JPERF_K8S_SERVICE";

    private KubernetesMembership() {
    }

    /**
     * @throws MembershipException naming the variable that is missing or malformed
     */
    public static ClusterMembership from(Map<String, String> env) {
        int rank = Members.nonNegative(env, INDEX);
        int count = Members.nonNegative(env, COUNT);
        if (count < 1) {
            throw new MembershipException(COUNT + "=0: the Job needs at least one pod (set it to the Job's completions)");
        }
        String job = label(env, JOB, "the Job's metadata.name");
        String service = label(env, SERVICE, "the headless Service's name, also the pods' spec.subdomain");
        List<String> hosts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            hosts.add(job + "-" + i + "." + service);
        }
        return Members.of(hosts, rank, "kubernetes (" + COUNT + ")", INDEX);
    }

    /** A DNS label (RFC 1123: lower-case letters, digits, '-', at most 63), or a message naming the variable. */
    private static String label(Map<String, String> env, String name, String meaning) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new MembershipException(name + " is not set: set it to " + meaning + " (docs/cluster.md)");
        }
        if (!v.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new MembershipException(name + "='" + v + "' is not a DNS label (lower-case letters, digits and"
                    + " '-', at most 63)");
        }
        return v;
    }
}
