package io.jperf.matrix;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClusterMembershipTest {

    @Test
    void slurmStepNodelistGivesRankAndHosts() {
        ClusterMembership m = ClusterMembership.fromEnvironment(Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "5",
                "SLURM_STEP_NODELIST", "node[001-004,007]", "SLURM_JOB_NODELIST", "node[001-010]"));
        assertEquals(2, m.rank());
        assertEquals(List.of("node001", "node002", "node003", "node004", "node007"), m.hosts());
        assertEquals("node001", m.coordinator());
        assertEquals("node003", m.self());
        assertFalse(m.isCoordinator());
        assertTrue(m.source().contains("SLURM_STEP_NODELIST"));
    }

    @Test
    void slurmFallsBackToTheJobNodelist() {
        ClusterMembership m = SlurmMembership.from(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2",
                "SLURM_JOB_NODELIST", "gpu-[1-2]-ib"));
        assertEquals(List.of("gpu-1-ib", "gpu-2-ib"), m.hosts());
        assertTrue(m.isCoordinator());
    }

    @Test
    void slurmErrorsNameTheVariable() {
        assertMessage(Map.of("SLURM_PROCID", "0", "SLURM_JOB_NODELIST", "a"), "SLURM_NTASKS is not set");
        assertMessage(Map.of("SLURM_PROCID", "x", "SLURM_NTASKS", "1", "SLURM_JOB_NODELIST", "a"),
                "SLURM_PROCID='x' is not a non-negative integer");
        assertMessage(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1"), "SLURM_STEP_NODELIST nor SLURM_JOB_NODELIST");
        assertMessage(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "4", "SLURM_JOB_NODELIST", "n[1-2]"),
                "SLURM_NTASKS=4 but SLURM_JOB_NODELIST names 2 nodes");
        assertMessage(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "2", "SLURM_JOB_NODELIST", "n[1-2]"),
                "SLURM_PROCID=3 is outside the 2 hosts");
        assertMessage(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_STEP_NODELIST", "n[1-2"),
                "SLURM_STEP_NODELIST='n[1-2'");
    }

    @Test
    void kubernetesIndexedJobNamesPodsThroughTheHeadlessService() {
        ClusterMembership m = ClusterMembership.fromEnvironment(Map.of("JOB_COMPLETION_INDEX", "1",
                "JPERF_K8S_COMPLETIONS", "3", "JPERF_K8S_JOB", "jperf-matrix", "JPERF_K8S_SERVICE", "jperf"));
        assertEquals(1, m.rank());
        assertEquals(List.of("jperf-matrix-0.jperf", "jperf-matrix-1.jperf", "jperf-matrix-2.jperf"), m.hosts());
        assertEquals("jperf-matrix-0.jperf", m.coordinator());
    }

    @Test
    void kubernetesErrorsNameTheVariable() {
        assertMessage(Map.of("JOB_COMPLETION_INDEX", "0", "JPERF_K8S_JOB", "j", "JPERF_K8S_SERVICE", "s"),
                "JPERF_K8S_COMPLETIONS is not set");
        assertMessage(Map.of("JOB_COMPLETION_INDEX", "0", "JPERF_K8S_COMPLETIONS", "2", "JPERF_K8S_SERVICE", "s"),
                "JPERF_K8S_JOB is not set");
        assertMessage(Map.of("JOB_COMPLETION_INDEX", "0", "JPERF_K8S_COMPLETIONS", "2", "JPERF_K8S_JOB", "j"),
                "JPERF_K8S_SERVICE is not set");
        assertMessage(Map.of("JOB_COMPLETION_INDEX", "0", "JPERF_K8S_COMPLETIONS", "2", "JPERF_K8S_JOB", "Bad_Name",
                "JPERF_K8S_SERVICE", "s"), "JPERF_K8S_JOB='Bad_Name' is not a DNS label");
        assertMessage(Map.of("JOB_COMPLETION_INDEX", "2", "JPERF_K8S_COMPLETIONS", "2", "JPERF_K8S_JOB", "j",
                "JPERF_K8S_SERVICE", "s"), "JOB_COMPLETION_INDEX=2 is outside the 2 hosts");
    }

    @Test
    void explicitHostsAndRank() {
        ClusterMembership m = ClusterMembership.explicit(List.of("a", "b", "c"), 2);
        assertEquals("c", m.self());
        assertEquals(3, m.size());
        assertEquals("--hosts", m.source());
        assertTrue(assertThrows(MembershipException.class, () -> ClusterMembership.explicit(List.of("a", "b"), 2))
                .getMessage().contains("--rank=2 is outside"));
        assertTrue(assertThrows(MembershipException.class, () -> ClusterMembership.explicit(List.of("a", "a"), 0))
                .getMessage().contains("names a twice"));
        assertTrue(assertThrows(MembershipException.class, () -> ClusterMembership.explicit(List.of(), 0))
                .getMessage().contains("empty"));
    }

    @Test
    void noSchedulerSaysWhatToDo() {
        assertMessage(Map.of("HOME", "/root"), "--hosts a,b,c and --rank N");
    }

    private static void assertMessage(Map<String, String> env, String expected) {
        MembershipException e = assertThrows(MembershipException.class, () -> ClusterMembership.fromEnvironment(env));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
