package org.flafka.cm.emulator;

import java.util.Optional;
import org.flafka.stack.AgentProcess;

/**
 * One Flume AGENT role of the emulated FLUME service and the real agent process behind it (none
 * while stopped). Its state changes only under its own lock, from a command thread.
 */
final class FlumeRole {
  private final String name;
  private final String group;
  private AgentProcess agent;
  private String state = "STOPPED";
  private boolean configStale;

  FlumeRole(String name, String group) {
    this.name = name;
    this.group = group;
  }

  String name() {
    return name;
  }

  String group() {
    return group;
  }

  synchronized Optional<AgentProcess> agent() {
    return Optional.ofNullable(agent);
  }

  synchronized void agent(AgentProcess agent) {
    this.agent = agent;
  }

  synchronized String state() {
    return state;
  }

  synchronized void state(String state) {
    this.state = state;
  }

  synchronized boolean configStale() {
    return configStale;
  }

  synchronized void configStale(boolean configStale) {
    this.configStale = configStale;
  }
}
