package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.OurPlugins;
import org.junit.jupiter.api.Test;

/**
 * Every class of ours that a rendered agent configuration names loads from the classpath the CLI
 * gives its agent processes, as the agent's own class loader would see it (Flume and our jars,
 * nothing of the CLI). It failed when the bench put only the edge and interceptor jars there:
 * {@code bench edge --set edge_partitioner=stripe} then could not start its agent.
 */
class OurPluginsTest {

  @Test
  void everyPluginClassTheTemplatesNameLoadsOnTheAgentClasspath() throws Exception {
    Set<String> named = new TreeSet<>();
    for (String partitioner : new String[] {"default", "stripe", "host-affinity"}) {
      named.addAll(
          ourClasses(AgentTemplates.render(Tier.EDGE, Map.of("edge_partitioner", partitioner))));
    }
    named.addAll(
        ourClasses(AgentTemplates.render(Tier.EDGE, Map.of("edge_channel_type", "kafka"))));
    named.addAll(ourClasses(AgentTemplates.render(Tier.CORE, Map.of())));
    assertTrue(
        named.size() >= 8,
        "the renderings name our source, channel, sink, interceptors, partitioners and "
            + "the core's plugins: "
            + named);

    try (URLClassLoader agent =
        new URLClassLoader(urls(OurPlugins.addTo(AgentRuntime.locate())), null)) {
      for (String name : named) {
        Class.forName(name, false, agent); // throws ClassNotFoundException naming the missing class
      }
    }
  }

  private static Set<String> ourClasses(String rendered) throws Exception {
    Properties properties = new Properties();
    properties.load(new StringReader(rendered));
    Set<String> names = new TreeSet<>();
    for (String value :
        properties.stringPropertyNames().stream().map(properties::getProperty).toList()) {
      if (value.startsWith("org.flafka.")) {
        names.add(value.trim());
      }
    }
    return names;
  }

  private static URL[] urls(AgentRuntime runtime) throws MalformedURLException {
    URL[] urls = new URL[runtime.classpath().size()];
    for (int i = 0; i < urls.length; i++) {
      Path entry = runtime.classpath().get(i);
      urls[i] = entry.toUri().toURL();
    }
    return urls;
  }
}
