package org.flafka.stack;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The classpath a Flume agent process runs on: the production agent runtime that the {@code
 * agents/runtime} module (flafka-agent-runtime) writes to {@code
 * agents/runtime/target/agent-classpath.txt}, plus any plugin jars or class directories the caller
 * adds. Only a separate process proves that this set is complete (docs/reference/dependencies.md,
 * "Starting agents in a JVM, and as processes").
 *
 * <p>{@link #locate()} finds the classpath file, in this order:
 *
 * <ol>
 *   <li>the system property {@value #CLASSPATH_FILE_PROPERTY} (a path to the file);
 *   <li>{@code <flafka.home>/agents/runtime/target/agent-classpath.txt}, where bin/flafka sets
 *       {@code flafka.home};
 *   <li>{@code agents/runtime/target/agent-classpath.txt} under the working directory or the
 *       nearest parent that has one: a module's tests run in the module's directory, inside the
 *       project.
 * </ol>
 */
public final class AgentRuntime {
  /** System property naming the classpath file, overriding the search. */
  public static final String CLASSPATH_FILE_PROPERTY = "flafka.agent.classpath";

  /** The classpath file, relative to the project root. */
  public static final String CLASSPATH_FILE = "agents/runtime/target/agent-classpath.txt";

  /** Agent logging, relative to the directory holding the classpath file. */
  static final String LOG_CONFIG = "conf/log4j2.xml";

  private static final String BUILD_HINT =
      "build it with ./mvnw -pl agents/runtime generate-resources"
          + " (any build that includes the module writes it)";

  private final Path classpathFile;
  private final List<Path> classpath;

  private AgentRuntime(Path classpathFile, List<Path> classpath) {
    this.classpathFile = classpathFile;
    this.classpath = List.copyOf(classpath);
  }

  /** Finds the agent runtime as described in the class comment. */
  public static AgentRuntime locate() {
    return locate(
        System.getProperty(CLASSPATH_FILE_PROPERTY),
        System.getProperty("flafka.home"),
        Path.of(System.getProperty("user.dir")));
  }

  static AgentRuntime locate(String classpathFileProperty, String home, Path workingDir) {
    if (classpathFileProperty != null && !classpathFileProperty.isBlank()) {
      return fromClasspathFile(Path.of(classpathFileProperty));
    }
    if (home != null && !home.isBlank()) {
      return fromClasspathFile(Path.of(home).resolve(CLASSPATH_FILE));
    }
    Path start = workingDir.toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(CLASSPATH_FILE);
      if (Files.isRegularFile(candidate)) {
        return fromClasspathFile(candidate);
      }
    }
    throw new StackException(
        "agent runtime classpath not found: no "
            + CLASSPATH_FILE
            + " in "
            + start
            + " or its parents, and -D"
            + CLASSPATH_FILE_PROPERTY
            + " is not set; "
            + BUILD_HINT);
  }

  /**
   * Reads a classpath file (entries separated by the path separator, as maven-dependency-plugin
   * writes them).
   */
  public static AgentRuntime fromClasspathFile(Path file) {
    Path absolute = file.toAbsolutePath();
    String content;
    try {
      content = Files.readString(absolute, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new StackException(
          "agent runtime classpath file "
              + absolute
              + " is unreadable ("
              + e.getMessage()
              + "); "
              + BUILD_HINT,
          e);
    }
    List<Path> entries = new ArrayList<>();
    for (String entry : content.split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        entries.add(Path.of(entry.strip()));
      }
    }
    if (entries.isEmpty()) {
      throw new StackException(
          "agent runtime classpath file " + absolute + " is empty; " + BUILD_HINT);
    }
    return new AgentRuntime(absolute, requireExisting(absolute, entries));
  }

  private static List<Path> requireExisting(Path classpathFile, List<Path> entries) {
    List<Path> missing = entries.stream().filter(entry -> !Files.exists(entry)).toList();
    if (!missing.isEmpty()) {
      throw new StackException(
          "agent runtime classpath "
              + classpathFile
              + " names "
              + missing.size()
              + " missing entries (first: "
              + missing.get(0)
              + "); rebuild it: "
              + BUILD_HINT);
    }
    return entries;
  }

  /** This runtime plus {@code entries} (plugin jars or class directories), appended. */
  public AgentRuntime withPlugins(Path... entries) {
    List<Path> all = new ArrayList<>(classpath);
    Collections.addAll(all, entries);
    return new AgentRuntime(classpathFile, requireExisting(classpathFile, all));
  }

  /**
   * This runtime plus the jar or class directory each of {@code pluginClasses} was loaded from: how
   * a module's tests put the module's own plugin (its target/classes) on an agent process's
   * classpath.
   */
  public AgentRuntime withPluginsOf(Class<?>... pluginClasses) {
    List<Path> entries = new ArrayList<>();
    for (Class<?> type : pluginClasses) {
      CodeSource source = type.getProtectionDomain().getCodeSource();
      if (source == null) {
        throw new IllegalArgumentException(type.getName() + " has no code source (a JDK class?)");
      }
      try {
        Path entry = Path.of(source.getLocation().toURI());
        if (!classpath.contains(entry) && !entries.contains(entry)) {
          entries.add(entry);
        }
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException(
            "code source of " + type.getName() + " is not a path: " + source.getLocation(), e);
      }
    }
    return withPlugins(entries.toArray(Path[]::new));
  }

  public List<Path> classpath() {
    return classpath;
  }

  /** The classpath as one {@code -cp} argument. */
  public String classpathString() {
    return classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  /** The file this runtime was read from. */
  public Path classpathFile() {
    return classpathFile;
  }

  /**
   * The agents' Log4j 2 configuration the runtime module ships next to its classpath file, if it is
   * there.
   */
  public Optional<Path> logConfig() {
    Path config = classpathFile.resolveSibling(LOG_CONFIG);
    return Files.isRegularFile(config) ? Optional.of(config) : Optional.empty();
  }

  @Override
  public String toString() {
    return "AgentRuntime[" + classpathFile + ", " + classpath.size() + " entries]";
  }
}
