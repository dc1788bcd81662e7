package org.flafka.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentRuntimeTest {
  @TempDir Path tmp;

  @Test
  void findsTheProjectsRuntimeFromAModuleDirectory() {
    AgentRuntime runtime = AgentRuntime.locate(null, null, Path.of("").toAbsolutePath());
    assertTrue(runtime.classpathFile().endsWith(AgentRuntime.CLASSPATH_FILE), runtime.toString());
    List<String> jars =
        runtime.classpath().stream().map(path -> path.getFileName().toString()).toList();
    assertTrue(jars.contains("flume-ng-node-1.11.0.jar"), jars.toString());
    assertTrue(jars.contains("hadoop-client-runtime-3.4.2.jar"), jars.toString());
    for (String forbidden :
        List.of(
            "kafka_2.13",
            "kafka-server",
            "scala-",
            "zookeeper",
            "libthrift",
            "tomcat",
            "netty-all",
            "junit",
            "mockito")) {
      assertTrue(
          jars.stream().noneMatch(jar -> jar.startsWith(forbidden)),
          "the agent runtime must not contain " + forbidden + ": " + jars);
    }
    assertTrue(runtime.logConfig().isPresent(), "the runtime module ships the agents' log4j2.xml");
  }

  @Test
  void theSystemPropertyWinsAndPluginsAreAppended() throws IOException {
    Path jar = Files.createFile(tmp.resolve("flume.jar"));
    Path classpathFile = Files.writeString(tmp.resolve("cp.txt"), jar + "\n");
    AgentRuntime runtime =
        AgentRuntime.locate(classpathFile.toString(), "/nonexistent", tmp)
            .withPluginsOf(AgentRuntimeTest.class);
    assertEquals(jar, runtime.classpath().get(0));
    Path testClasses = Path.of("target/test-classes").toAbsolutePath();
    assertEquals(List.of(jar, testClasses), runtime.classpath());
    assertEquals(jar + File.pathSeparator + testClasses, runtime.classpathString());
  }

  @Test
  void aMissingClasspathFileSaysHowToBuildIt() {
    StackException e =
        assertThrows(StackException.class, () -> AgentRuntime.locate(null, null, tmp));
    assertEquals(
        "agent runtime classpath not found: no agents/runtime/target/agent-classpath.txt in "
            + tmp
            + " or its parents, and -Dflafka.agent.classpath is not set; build it with ./mvnw -pl agents/runtime"
            + " generate-resources (any build that includes the module writes it)",
        e.getMessage());
  }

  @Test
  void aStaleClasspathNamingMissingJarsSaysToRebuild() throws IOException {
    Path classpathFile =
        Files.writeString(tmp.resolve("cp.txt"), tmp.resolve("gone.jar").toString());
    StackException e =
        assertThrows(StackException.class, () -> AgentRuntime.fromClasspathFile(classpathFile));
    assertTrue(
        e.getMessage()
            .startsWith(
                "agent runtime classpath "
                    + classpathFile
                    + " names 1 missing entries"
                    + " (first: "
                    + tmp.resolve("gone.jar")
                    + "); rebuild it: "),
        e.getMessage());
  }
}
