package org.flafka.sweep.target;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where one run of a trial happens, as its target prepared it: a directory for its files (manifest,
 * agent logs), the topic created for it, the template variables that point the agents at this
 * target's broker, HDFS, ports and paths (overlaid on the trial's own settings when rendering;
 * core_hdfs_root says where the events land), and where the load goes.
 */
public record TrialEnvironment(
    String runName,
    Path directory,
    String topic,
    Map<String, Object> edgeVariables,
    Map<String, Object> coreVariables,
    InetSocketAddress syslog) {
  public TrialEnvironment {
    edgeVariables = Map.copyOf(edgeVariables);
    coreVariables = Map.copyOf(coreVariables);
  }
}
