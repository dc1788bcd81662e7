package org.flafka.stack;

import java.util.ArrayList;
import java.util.List;

/**
 * The plugins of this project that an agent process started by the CLI (the bench, the sweep's
 * local target, the CM emulator) may need: one class from each module an agent loads (the parser,
 * the contract, the configuration engine, the interceptors, the partitioners, the edge's and the
 * core's plugins), whose jar, or classes directory in a build, goes on the agent's classpath. All
 * of them whatever the agent runs, so that any template setting (a partitioner, the core's sink)
 * finds its classes.
 *
 * <p>The classes are named, not referenced: the plugin modules' own tests run on this stack, so the
 * stack cannot depend on them. The caller's classpath (the CLI's) holds them; {@code
 * OurPluginsTest} checks every class a rendered configuration names loads from the result.
 */
public final class OurPlugins {

  /** One class per plugin module. */
  static final List<String> ONE_CLASS_PER_MODULE =
      List.of(
          "org.flafka.syslog.SyslogParser",
          "org.flafka.contract.Headers",
          "org.flafka.config.ConfigDef",
          "org.flafka.interceptors.SyslogInterceptor",
          "org.flafka.partitioner.StripePartitioner",
          "org.flafka.edge.source.SyslogSource",
          "org.flafka.core.HdfsBucketSink");

  private OurPlugins() {}

  /**
   * {@code runtime} plus every plugin module.
   *
   * @throws StackException when a plugin module is not on this process's classpath (a build without
   *     it)
   */
  public static AgentRuntime addTo(AgentRuntime runtime) {
    for (String name : ONE_CLASS_PER_MODULE) {
      if (find(name) == null) {
        throw new StackException(
            "plugin class "
                + name
                + " is not on this program's classpath: rebuild with "
                + "./mvnw -pl cli -am package (bin/flafka does this on first use)");
      }
    }
    return addThoseOnTheClasspathTo(runtime);
  }

  /**
   * {@code runtime} plus the plugin modules on this program's classpath: for the tests of a plugin
   * module, which see the modules it depends on (the parser, the contract, the configuration
   * engine, …) but not those beside it. An agent that needs a module the test does not have fails
   * at start, naming the missing class.
   */
  public static AgentRuntime addThoseOnTheClasspathTo(AgentRuntime runtime) {
    List<Class<?>> classes = new ArrayList<>();
    for (String name : ONE_CLASS_PER_MODULE) {
      Class<?> type = find(name);
      if (type != null) {
        classes.add(type);
      }
    }
    return runtime.withPluginsOf(classes.toArray(Class<?>[]::new));
  }

  private static Class<?> find(String name) {
    try {
      return Class.forName(name, false, OurPlugins.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null;
    }
  }
}
