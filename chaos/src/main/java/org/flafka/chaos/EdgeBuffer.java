package org.flafka.chaos;

import java.util.Map;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;

/**
 * Whether the edge template buffers on disk by default (issue 29), read from the template's own
 * defaults so the suite follows the template without a copy of its variables.
 */
final class EdgeBuffer {
  /** The edge template's variable of the disk buffer's size; 0 turns the buffer off. */
  static final String MAX_BYTES = "edge_buffer_max_bytes";

  private EdgeBuffer() {}

  /** The edge's defaults include a disk buffer of some size. */
  static boolean isDefault() {
    Object maxBytes = AgentTemplates.defaults(Tier.EDGE).get(MAX_BYTES);
    return maxBytes != null && !"0".equals(String.valueOf(maxBytes));
  }

  /**
   * The edge variables that switch the buffer off: its size 0 once the template has it, else the
   * plain memory channel it would sit behind.
   */
  static Map<String, Object> off() {
    return AgentTemplates.defaults(Tier.EDGE).containsKey(MAX_BYTES)
        ? Map.of(MAX_BYTES, 0)
        : Map.of("edge_channel_type", "memory");
  }
}
