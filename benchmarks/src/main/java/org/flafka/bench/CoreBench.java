package org.flafka.core;

import org.flafka.interceptors.BucketHeadersInterceptor;
import org.flafka.interceptors.HostLaneInterceptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.flafka.interceptors.HostNames;
import org.flafka.stack.AgentProcess;
import org.flafka.stack.ContractEvent;
import org.flafka.stack.AgentRuntime;
import org.flafka.stack.ThreadCpu;

/**
 * How fast a core agent drains a topic into HDFS: Flume's stock configuration against the kit's template with 1, 2
 * and 4 HDFS sinks (with more than one, spread by batch, FanOutInterceptor, and by host, {@link HostLaneInterceptor}:
 * the template's core_fanout), in one run, on the same topic contents. Not a test (performance is measured here, never in
 * unit tests): run it by hand, see docs/benchmarks.md for the command.
 * <p>
 * One run: a KRaft broker and a MiniDFSCluster in this JVM; a topic preloaded with {@code --events} syslog events of
 * about 200 bytes with the edge header contract, from {@code --hosts} devices; then, for each configuration, a
 * fresh consumer group and HDFS root, the core agent started as its own process on the production classpath, and
 * a window from its first drained event (sum of the sinks' EventDrainSuccessCount) until it has drained the whole
 * topic or 60 s have passed. Events per second = events drained in the window / its length; start-up and the
 * consumer group join are outside it. The agent's CPU time (user + system) over the window is reported per
 * million events, in total and by thread group ({@link ThreadCpu}: sink runners, HDFS sink threads, Kafka source
 * runners, GC, JIT), and the number of files it created.
 * <p>
 * "stock" is what a user gets from Flume's defaults with the same layout: one Kafka source, a memory channel with
 * Flume's default capacity and transaction capacity (100), one HDFS sink with hdfs.batchSize 100 and the default
 * rolls (30 s, 1024 bytes, 10 events), snappy text. Its only changes from the defaults are what it needs to run and
 * to produce the same layout: the source's batchSize lowered to 100 (Flume refuses a source batch larger than the
 * channel's transaction capacity), the header mapping, hdfs.minBlockReplicas=1 (one datanode) and starting at the
 * earliest offset. "stock-rolls" is stock with the template's rolls (size 124 MiB, 3600 s, no count), to separate
 * what Flume's default rolls cost from what the template's batching and lanes gain.
 */
public final class CoreDrainBenchmark {

    /** Longest measuring window: a slow configuration is measured on what it drains in this time. */
    private static final Duration MAX_WINDOW = Duration.ofSeconds(60);
    /** Longest wait for an agent's first drained event (start-up, consumer group join). */
    private static final Duration FIRST_EVENT_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration POLL = Duration.ofMillis(200);

    private final CoreStack stack;
    private final Path dir;
    private final String topic;
    private final int events;
    private final AgentRuntime runtime;
    private final List<String> jvmOptions;

    private CoreDrainBenchmark(CoreStack stack, Path dir, String topic, int events, List<String> jvmOptions) {
        this.jvmOptions = jvmOptions;
        this.stack = stack;
        this.dir = dir;
        this.topic = topic;
        this.events = events;
        this.runtime = AgentRuntime.locate().withPluginsOf(BucketHeadersInterceptor.class, HostNames.class);
    }

    /** One configuration's result. */
    record Result(String name, long measured, double seconds, double eventsPerSecond, double cpuSecondsPerMillion,
            long files, Map<String, Double> threadCpuSecondsPerMillion) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int events = Integer.parseInt(options.getOrDefault("events", "200000"));
        int hosts = Integer.parseInt(options.getOrDefault("hosts", "200"));
        int partitions = Integer.parseInt(options.getOrDefault("partitions", "8"));
        List<Integer> sinks = new ArrayList<>();
        for (String k : options.getOrDefault("sinks", "1,2,4").split(",")) {
            sinks.add(Integer.parseInt(k.trim()));
        }
        boolean stock = Boolean.parseBoolean(options.getOrDefault("stock", "true"));
        List<String> fanouts = List.of(options.getOrDefault("fanout", "batch,host").split(","));
        String jvm = options.get("jvm");
        List<String> sinkImpls = List.of(options.getOrDefault("sink-impl", "flafka,stock").split(","));
        List<String> sourceImpls = List.of(options.getOrDefault("source-impl", "flafka").split(","));

        Path dir = Files.createTempDirectory("flafka-core-bench");
        try (CoreStack stack = CoreStack.start(dir.resolve("stack"))) {
            String topic = "bench";
            stack.kafka().createTopic(topic, partitions);
            System.out.printf(Locale.ROOT, "preloading %,d events from %d hosts into %d partitions...%n", events,
                    hosts, partitions);
            preload(stack, topic, events, hosts);
            CoreDrainBenchmark bench = new CoreDrainBenchmark(stack, dir, topic, events,
                    jvm == null ? AgentProcess.DEFAULT_JVM_OPTIONS : List.of(jvm.trim().split("\\s+")));
            List<Result> results = new ArrayList<>();
            if (stock) {
                results.add(bench.run("stock", stockProperties(stack, topic, "stock", Map.of())));
                // The same with the template's rolls, to tell what rolling costs from what batching and lanes gain
                results.add(bench.run("stock-rolls", stockProperties(stack, topic, "stock-rolls", Map.of(
                        "hdfs.rollInterval", "3600", "hdfs.rollSize", "130023424", "hdfs.rollCount", "0"))));
            }
            for (int k : sinks) {
                // One sink needs no fan-out: measure it once
                for (String fanout : k == 1 ? List.of("none") : fanouts) {
                    for (List<String> impls : implementations(sourceImpls, sinkImpls)) {
                        String sourceImpl = impls.get(0);
                        String impl = impls.get(1);
                        String name = "template-k" + k + (k == 1 ? "" : "-" + fanout.trim())
                                + (sourceImpl.equals("flafka") ? "" : "-" + sourceImpl + "-source")
                                + (impl.equals("flafka") ? "" : "-" + impl + "-sink");
                        Map<String, Object> variables = stack.variables(topic, stack.hdfsRoot(name),
                                dir.resolve(name + "-data"), Map.of("core_hdfs_sinks", k));
                        // Template defaults for everything that matters to speed: sources, batches, channel, rolls
                        for (String sized : List.of("core_kafka_sources", "core_source_batch_size",
                                "core_source_batch_duration_millis", "core_hdfs_batch_size", "core_channel_capacity",
                                "core_channel_transaction_capacity")) {
                            variables.remove(sized);
                        }
                        variables.put("core_consumer_group", "bench-" + name);
                        variables.put("core_sink_impl", impl);
                        variables.put("core_source_impl", sourceImpl);
                        if (k > 1) {
                            variables.put("core_fanout", fanout.trim());
                        }
                        results.add(bench.run(name, CoreStack.render(variables)));
                    }
                }
            }
            print(results, events, hosts, partitions);
        } finally {
            deleteQuietly(dir);
        }
    }

    /** Every (source, sink) implementation pair to run, sources outermost. */
    private static List<List<String>> implementations(List<String> sources, List<String> sinks) {
        List<List<String>> pairs = new ArrayList<>();
        for (String source : sources) {
            for (String sink : sinks) {
                pairs.add(List.of(source.trim(), sink.trim()));
            }
        }
        return pairs;
    }

    private Result run(String name, String properties) throws IOException {
        System.out.printf(Locale.ROOT, "%s: starting the agent...%n", name);
        AgentProcess agent = AgentProcess.builder("core", properties, dir.resolve(name)).runtime(runtime)
                .jvmOptions(jvmOptions).start();
        try {
            List<String> sinks = List.copyOf(agent.components().sinks());
            long startDeadline = System.nanoTime() + FIRST_EVENT_TIMEOUT.toNanos();
            long firstDrained;
            long startNanos;
            Duration startCpu;
            ThreadCpu startThreads;
            while (true) {
                firstDrained = drained(agent, sinks);
                if (firstDrained > 0) {
                    startNanos = System.nanoTime();
                    startCpu = agent.cpuTime();
                    startThreads = ThreadCpu.of(agent.pid());
                    break;
                }
                if (System.nanoTime() > startDeadline) {
                    throw new IllegalStateException(name + " drained nothing in " + FIRST_EVENT_TIMEOUT.toMinutes()
                            + " min; see " + agent.log());
                }
                CoreStack.sleep(POLL);
            }
            while (true) {
                CoreStack.sleep(POLL);
                long drained = drained(agent, sinks);
                long now = System.nanoTime();
                if (drained >= events || now - startNanos >= MAX_WINDOW.toNanos()) {
                    double seconds = (now - startNanos) / 1e9;
                    double cpu = (agent.cpuTime().toNanos() - startCpu.toNanos()) / 1e9;
                    Map<String, Double> threadSeconds = ThreadCpu.of(agent.pid()).secondsSince(startThreads,
                            ThreadCpu.ThreadGroups.FLUME_AGENT);
                    long counted = drained - firstDrained;
                    Map<String, Double> threadCpuPerMillion = new TreeMap<>();
                    threadSeconds.forEach((group, s) -> threadCpuPerMillion.put(group, s / (counted / 1e6)));
                    Result result = new Result(name, counted, seconds, counted / seconds,
                            cpu / (counted / 1e6), countFiles(name), threadCpuPerMillion);
                    System.out.printf(Locale.ROOT, "%s: %,.0f events/s (%,d events in %.1f s)%n", name,
                            result.eventsPerSecond(), counted, seconds);
                    return result;
                }
            }
        } finally {
            agent.stop();
        }
    }

    private static long drained(AgentProcess agent, List<String> sinks) {
        var metrics = agent.metrics();
        long drained = 0;
        for (String sink : sinks) {
            drained += metrics.sink(sink, "EventDrainSuccessCount");
        }
        return drained;
    }

    private long countFiles(String name) throws IOException {
        long files = 0;
        RemoteIterator<LocatedFileStatus> listing = stack.fs().listFiles(
                new org.apache.hadoop.fs.Path(stack.hdfsRoot(name)), true);
        while (listing.hasNext()) {
            listing.next();
            files++;
        }
        return files;
    }

    /** Flume's stock single-source, single-sink configuration for the same layout (see the class comment). */
    static String stockProperties(CoreStack stack, String topic, String name, Map<String, String> sinkOverrides) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("core.sources", "kafka0");
        p.put("core.channels", "ch0");
        p.put("core.sinks", "hdfs0");
        p.put("core.sources.kafka0.type", "org.apache.flume.source.kafka.KafkaSource");
        p.put("core.sources.kafka0.kafka.bootstrap.servers", stack.kafka().bootstrapServers());
        p.put("core.sources.kafka0.kafka.topics", topic);
        p.put("core.sources.kafka0.kafka.consumer.group.id", "bench-" + name);
        p.put("core.sources.kafka0.kafka.consumer.auto.offset.reset", "earliest");
        p.put("core.sources.kafka0.batchSize", "100");
        p.put("core.sources.kafka0.header.timestamp", "timestamp");
        p.put("core.sources.kafka0.header.host", "host");
        p.put("core.sources.kafka0.channels", "ch0");
        p.put("core.channels.ch0.type", "memory");
        p.put("core.sinks.hdfs0.type", "hdfs");
        p.put("core.sinks.hdfs0.channel", "ch0");
        p.put("core.sinks.hdfs0.hdfs.path", stack.hdfsRoot(name) + "/dt=%Y-%m-%d/host=%{host}");
        p.put("core.sinks.hdfs0.hdfs.timeZone", "UTC");
        p.put("core.sinks.hdfs0.hdfs.fileType", "CompressedStream");
        p.put("core.sinks.hdfs0.hdfs.codeC", "snappy");
        p.put("core.sinks.hdfs0.hdfs.minBlockReplicas", "1");
        sinkOverrides.forEach((key, value) -> p.put("core.sinks.hdfs0." + key, value));
        StringBuilder text = new StringBuilder();
        p.forEach((key, value) -> text.append(key).append(" = ").append(value).append('\n'));
        return text.toString();
    }

    private static void preload(CoreStack stack, String topic, int events, int hosts) {
        long now = System.currentTimeMillis();
        try (KafkaProducer<byte[], byte[]> producer = ContractEvent.producer(stack.kafka().bootstrapServers())) {
            List<ContractEvent> batch = new ArrayList<>(10_000);
            for (int n = 0; n < events; n++) {
                String id = "b" + n;
                String host = "edge-router-" + (n % hosts);
                long timestamp = now - (n % 3600) * 1000L;
                batch.add(new ContractEvent(id, ContractEvent.syslogBody(id, host, timestamp, 200),
                        ContractEvent.contractHeaders(id, host, timestamp)));
                if (batch.size() == 10_000) {
                    ContractEvent.send(producer, topic, batch);
                    batch.clear();
                }
            }
            ContractEvent.send(producer, topic, batch);
        }
    }

    private static void print(List<Result> results, int events, int hosts, int partitions) {
        System.out.printf(Locale.ROOT, "%ncore drain benchmark, %s: %,d events (~200 B bodies), %d hosts, "
                + "%d partitions%n", Instant.now(), events, hosts, partitions);
        System.out.println("| configuration | events/s | x stock | events measured | seconds | CPU s per M events "
                + "| files |");
        System.out.println("|---|---|---|---|---|---|---|");
        double stock = results.stream().filter(r -> r.name().equals("stock")).mapToDouble(Result::eventsPerSecond)
                .findFirst().orElse(Double.NaN);
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %.1f | %,d | %.1f | %.1f | %,d |%n", r.name(),
                    r.eventsPerSecond(), r.eventsPerSecond() / stock, r.measured(), r.seconds(),
                    r.cpuSecondsPerMillion(), r.files());
        }
        // Where each agent's CPU went, by thread group (Linux /proc; empty elsewhere)
        TreeSet<String> groups = new TreeSet<>();
        results.forEach(r -> groups.addAll(r.threadCpuSecondsPerMillion().keySet()));
        System.out.println();
        System.out.println("| configuration | " + String.join(" | ", groups) + " |   (agent CPU s per M events by thread)");
        System.out.println("|---|" + "---|".repeat(groups.size()));
        for (Result r : results) {
            StringBuilder row = new StringBuilder("| " + r.name() + " |");
            groups.forEach(g -> row.append(String.format(Locale.ROOT, " %.1f |",
                    r.threadCpuSecondsPerMillion().getOrDefault(g, 0.0))));
            System.out.println(row);
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got '" + arg + "'; options: "
                        + "--events=N --hosts=N --partitions=N --sinks=1,2,4 --fanout=batch,host --stock=true|false"
                        + " --sink-impl=flafka,stock --source-impl=flafka,stock --jvm='AGENT JVM OPTIONS'"
                        + " (default -Xms256m -Xmx1g)");
            }
            options.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return options;
    }

    private static void deleteQuietly(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
