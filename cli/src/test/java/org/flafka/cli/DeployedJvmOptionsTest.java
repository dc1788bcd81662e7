package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.flafka.stack.AgentProcess;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The benchmarks and the sweep run their agents with a deployed agent's JVM options, so the two
 * places that say what those are must agree.
 */
class DeployedJvmOptionsTest {

  @Test
  void benchesAndSweepsRunAgentsWithTheAnsibleRolesJvmOptions() throws Exception {
    Path defaults = Path.of("..", "ansible", "roles", "flafka_agent", "defaults", "main.yml");
    Map<String, Object> role = new Yaml().load(Files.readString(defaults));
    assertEquals(
        role.get("flafka_agent_java_opts"),
        AgentProcess.DEPLOYED_JVM_OPTIONS_LINE,
        "AgentProcess.DEPLOYED_JVM_OPTIONS_LINE must be the flafka_agent role's default");
  }
}
