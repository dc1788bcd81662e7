package org.flafka.sweep.trial;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.flafka.sweep.target.AgentSample;
import org.junit.jupiter.api.Test;

class TrialRunnerTest {
    private static AgentSample core(long sourceAccepted, long filesOpened, long sinkDrained) {
        return new AgentSample(Map.of(
                "SOURCE.kafka0", Map.of("EventAcceptedCount", sourceAccepted),
                "SINK.hdfs0", Map.of("ConnectionCreatedCount", filesOpened, "EventDrainSuccessCount", sinkDrained),
                "SINK.hdfs1", Map.of("ConnectionCreatedCount", 0L, "EventDrainSuccessCount", 0L)), 1.0, 0);
    }

    @Test
    void eventsFlowOnceABatchLandedOrTheSinksOpenedFilesForWhatTheSourcesTook() {
        assertFalse(TrialRunner.flowing(core(0, 0, 0)), "nothing consumed yet: the group is still joining");
        assertFalse(TrialRunner.flowing(core(3000, 0, 0)), "consumed, but no sink has opened a file");
        assertTrue(TrialRunner.flowing(core(3000, 1, 0)),
                "a sink writes a file while it fills its first batch: a trickle would take tens of seconds to fill it");
        assertTrue(TrialRunner.flowing(core(3000, 0, 1000)), "a batch landed");
    }
}
