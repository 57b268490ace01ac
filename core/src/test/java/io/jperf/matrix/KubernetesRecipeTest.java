package io.jperf.matrix;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Kubernetes recipe in docs/cluster.md, read from the file: its environment gives the pods' DNS names. */
class KubernetesRecipeTest {

    @Test
    void theRecipesEnvironmentGivesEveryPodTheSameHostList() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "cluster.md"));
        int start = doc.indexOf("```yaml");
        String yaml = doc.substring(start, doc.indexOf("```", start + 7));
        Map<String, String> env = new HashMap<>();
        Matcher m = java.util.regex.Pattern.compile("- name: (JPERF_K8S_\\w+)\\s+value: \"?([\\w-]+)\"?").matcher(yaml);
        while (m.find()) {
            env.put(m.group(1), m.group(2));
        }
        assertEquals(3, env.size(), env.toString());
        int completions = Integer.parseInt(value(yaml, "completions"));
        assertEquals(Integer.toString(completions), env.get("JPERF_K8S_COMPLETIONS"));
        assertEquals(value(yaml, "subdomain"), env.get("JPERF_K8S_SERVICE"));
        assertTrue(yaml.contains("name: " + env.get("JPERF_K8S_JOB")), "the Job's name");
        assertTrue(yaml.contains("job-name: " + env.get("JPERF_K8S_JOB")), "the Service selects the Job's pods");
        for (int i = 0; i < completions; i++) {
            env.put("JOB_COMPLETION_INDEX", Integer.toString(i));
            ClusterMembership members = ClusterMembership.fromEnvironment(env);
            assertEquals(i, members.rank());
            assertEquals(completions, members.size());
            assertEquals("jperf-matrix-" + i + ".jperf", members.self());
            assertEquals("jperf-matrix-0.jperf", members.coordinator());
        }
    }

    private static String value(String yaml, String key) {
        Matcher m = java.util.regex.Pattern.compile("\\b" + key + ": (\\S+)").matcher(yaml);
        assertTrue(m.find(), key);
        return m.group(1);
    }
}
