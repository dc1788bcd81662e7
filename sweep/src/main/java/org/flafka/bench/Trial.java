package org.flafka.bench;

/**
 * What one variant did in one measure window. Rates are per second of the window; CPU is per million events that
 * arrived in Kafka (the end offsets of the topic's partitions, summed).
 *
 * @param kafkaEvents records the topic gained during the window
 * @param sourceAccepted the source's EventAcceptedCount gained (events committed to the channel)
 * @param sinkDrained the sinks' EventDrainSuccessCount gained (the Kafka sink never counts BatchCompleteCount)
 * @param generatorSent events the generator handed to the kernel during the window
 * @param agentCpuSeconds CPU (user + system) of the agent process during the window
 * @param brokerCpuSeconds CPU of the broker process during the window
 * @param generatorCpuSeconds CPU of this JVM during the window: the generator plus the bench's own polling
 * @param loadAverage the machine's one-minute load average at the end of the window, or -1 if unknown
 */
public record Trial(
        Variant variant,
        int repeat,
        double seconds,
        long kafkaEvents,
        long sourceAccepted,
        long sinkDrained,
        long generatorSent,
        double agentCpuSeconds,
        double brokerCpuSeconds,
        double generatorCpuSeconds,
        double loadAverage) {

    public double eventsPerSecond() {
        return kafkaEvents / seconds;
    }

    public double sourceAcceptedPerSecond() {
        return sourceAccepted / seconds;
    }

    public double sinkDrainedPerSecond() {
        return sinkDrained / seconds;
    }

    public double generatorSentPerSecond() {
        return generatorSent / seconds;
    }

    public double agentCpuPerMillion() {
        return perMillion(agentCpuSeconds);
    }

    public double brokerCpuPerMillion() {
        return perMillion(brokerCpuSeconds);
    }

    public double generatorCpuPerMillion() {
        return perMillion(generatorCpuSeconds);
    }

    private double perMillion(double cpuSeconds) {
        return kafkaEvents == 0 ? Double.NaN : cpuSeconds / (kafkaEvents / 1e6);
    }
}
