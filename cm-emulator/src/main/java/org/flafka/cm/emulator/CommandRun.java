package org.flafka.cm.emulator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.flafka.cm.model.ApiClusterRef;
import org.flafka.cm.model.ApiCommand;
import org.flafka.cm.model.ApiList;
import org.flafka.cm.model.ApiRoleRef;
import org.flafka.cm.model.ApiServiceRef;

/** A command in flight or finished, as {@code GET /commands/{id}} shows it. */
final class CommandRun {
  private final long id;
  private final String name;
  private final String cluster;
  private final String service;
  private final String role;
  private final Instant start = Instant.now();
  private final List<CommandRun> children = new ArrayList<>();
  private Instant end;
  private Boolean success;
  private String resultMessage;

  CommandRun(long id, String name, String cluster, String service, String role) {
    this.id = id;
    this.name = name;
    this.cluster = cluster;
    this.service = service;
    this.role = role;
  }

  long id() {
    return id;
  }

  synchronized void addChild(CommandRun child) {
    children.add(child);
  }

  synchronized void finish(boolean succeeded, String message) {
    end = Instant.now();
    success = succeeded;
    resultMessage = message;
  }

  synchronized boolean succeeded() {
    return Boolean.TRUE.equals(success);
  }

  synchronized ApiCommand toApi() {
    List<ApiCommand> childCommands = new ArrayList<>();
    for (CommandRun child : children) {
      childCommands.add(child.toApi());
    }
    return new ApiCommand(
        id,
        name,
        start.toString(),
        end == null ? null : end.toString(),
        end == null,
        success,
        resultMessage == null ? (end == null ? name + " is running" : null) : resultMessage,
        null,
        new ApiClusterRef(cluster, cluster),
        service == null ? null : new ApiServiceRef(null, cluster, service, null, null),
        role == null ? null : new ApiRoleRef(cluster, service, role),
        null,
        null,
        new ApiList<>(childCommands),
        false);
  }
}
