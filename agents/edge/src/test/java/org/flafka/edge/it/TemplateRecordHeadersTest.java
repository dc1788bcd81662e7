package org.flafka.edge.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.flafka.contract.Headers;
import org.flafka.render.AgentTemplates;
import org.flafka.render.Tier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The record headers the agent templates carry by default ({@code kafka_record_headers}, the edge
 * writing them and the core reading them) are the contract's {@link Headers#ON_THE_WIRE}, in the
 * same order.
 */
class TemplateRecordHeadersTest {

  @ParameterizedTest
  @EnumSource(Tier.class)
  void theDefaultRecordHeadersAreTheContracts(Tier tier) {
    assertEquals(Headers.ON_THE_WIRE, AgentTemplates.defaults(tier).get("kafka_record_headers"));
  }
}
