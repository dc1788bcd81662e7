package org.flafka.sweep.space;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.flafka.render.AgentTemplates;
import org.flafka.sweep.search.Strategies;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads a space file. Every mistake is a {@link SpaceException} naming the file, the line, the key
 * and the fix; the values are checked by the same rules {@code flafka render} and {@code flafka
 * load} apply, so a space that parses renders. See docs/tools/sweep.md for the format.
 */
public final class SpaceParser {
  /** Where the built-in spaces live on the classpath ({@code spaces/<name>.yml}). */
  public static final String BUILT_IN_DIRECTORY = "spaces/";

  /** A built-in space's {@link Space#source()}: this and its name. */
  public static final String BUILT_IN_SOURCE_PREFIX = "built-in:";

  /** The built-in spaces, in the order {@code --list-spaces} shows them. */
  public static final List<String> BUILT_IN =
      List.of("default", "core", "lanes", "batching", "producer", "channels");

  private static final List<String> TOP_LEVEL =
      List.of("name", "description", "strategy", "timing", "load", "set", "dimensions", "report");
  private static final List<String> TIMING_KEYS =
      List.of("warmup", "warmup_max", "measure", "repeats", "drain");
  private static final List<String> REPORT_KEYS = List.of("chart_dimensions");
  private static final InetSocketAddress NOWHERE =
      InetSocketAddress.createUnresolved("localhost", 514);

  private final String source;

  private SpaceParser(String source) {
    this.source = source;
  }

  /** Reads the space file at {@code path}. */
  public static Space parse(Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new SpaceException(
          path.toString(),
          0,
          null,
          "no such file; give the path of a space file, or one of"
              + " the built-in spaces: "
              + String.join(", ", BUILT_IN));
    } catch (IOException e) {
      throw new SpaceException(path.toString(), 0, null, "cannot read it (" + e.getMessage() + ")");
    }
    return parse(path.toString(), fileName(path), text);
  }

  /** Reads the built-in space {@code name} from the classpath. */
  public static Space builtIn(String name) {
    String resource = BUILT_IN_DIRECTORY + name + ".yml";
    try (InputStream in = SpaceParser.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new SpaceException(
            BUILT_IN_SOURCE_PREFIX + name,
            0,
            null,
            "there is no such built-in space; use"
                + " one of "
                + String.join(", ", BUILT_IN)
                + ", or the path of a space file");
      }
      return parse(
          BUILT_IN_SOURCE_PREFIX + name,
          name,
          new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource + " from the flafka jar", e);
    }
  }

  /** The text of a built-in space, for {@code --show-space}. */
  public static String builtInText(String name) {
    String resource = BUILT_IN_DIRECTORY + name + ".yml";
    try (InputStream in = SpaceParser.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new SpaceException(
            BUILT_IN_SOURCE_PREFIX + name,
            0,
            null,
            "there is no such built-in space; use" + " one of " + String.join(", ", BUILT_IN));
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource + " from the flafka jar", e);
    }
  }

  /**
   * Reads a space from {@code text}; {@code source} names it in messages, {@code defaultName} if it
   * has no name.
   */
  public static Space parse(String source, String defaultName, String text) {
    return new SpaceParser(source).read(defaultName, text);
  }

  private Space read(String defaultName, String text) {
    Node root = compose(text);
    if (root == null) {
      throw new SpaceException(
          source,
          1,
          null,
          "the file is empty; a space needs at least a dimensions:"
              + " section (see docs/tools/sweep.md)");
    }
    MappingNode top =
        mapping(
            root,
            "(top level)",
            "write the space as a YAML mapping of name:, timing:, load:," + " set:, dimensions:");
    Map<String, NodeTuple> sections = entries(top, "", TOP_LEVEL);

    String name = sections.containsKey("name") ? string(sections.get("name"), "name") : defaultName;
    String description =
        sections.containsKey("description")
            ? string(sections.get("description"), "description")
            : "";
    String strategy = null;
    if (sections.containsKey("strategy")) {
      NodeTuple tuple = sections.get("strategy");
      strategy = string(tuple, "strategy");
      if (!Strategies.names().contains(strategy)) {
        throw error(
            tuple.getValueNode(),
            "strategy",
            "unknown strategy '"
                + strategy
                + "'; use one of "
                + String.join(", ", Strategies.names()));
      }
    }
    Timing timing =
        sections.containsKey("timing") ? timing(sections.get("timing")) : Timing.DEFAULT;

    Map<String, Object> fixed = new LinkedHashMap<>();
    Map<String, Node> fixedNodes = new LinkedHashMap<>();
    if (sections.containsKey("load")) {
      MappingNode load =
          mapping(
              sections.get("load").getValueNode(),
              "load",
              "write load settings as a mapping, e.g. load: {rate: max, connections: 2}");
      for (NodeTuple tuple : entries(load, "load.", loadKeys()).values()) {
        String key = Knobs.LOAD_PREFIX + key(tuple);
        fixed.put(key, knobValue(Knobs.find(key).orElseThrow(), tuple.getValueNode(), key));
        fixedNodes.put(key, tuple.getKeyNode());
      }
    }
    if (sections.containsKey("set")) {
      MappingNode set =
          mapping(
              sections.get("set").getValueNode(),
              "set",
              "write fixed settings as a mapping of template variable names to values");
      for (NodeTuple tuple : entries(set, "set.", null).values()) {
        String key = key(tuple);
        if (key.startsWith(Knobs.LOAD_PREFIX)) {
          throw error(
              tuple.getKeyNode(),
              "set." + key,
              "load settings go in the load: section, without" + " the load. prefix");
        }
        Knob knob =
            Knobs.find(key)
                .orElseThrow(() -> error(tuple.getKeyNode(), "set." + key, Knobs.whyUnknown(key)));
        fixed.put(key, knobValue(knob, tuple.getValueNode(), "set." + key));
        fixedNodes.put(key, tuple.getKeyNode());
      }
    }

    if (!sections.containsKey("dimensions")) {
      throw new SpaceException(
          source,
          top.getStartMark().getLine() + 1,
          "dimensions",
          "missing; add a dimensions: mapping of knob names to lists of values");
    }
    List<Dimension> dimensions = dimensions(sections.get("dimensions"), fixedNodes);
    checkLoad(fixed, dimensions, sections);

    List<String> chartDimensions = List.of();
    if (sections.containsKey("report")) {
      chartDimensions = chartDimensions(sections.get("report"), dimensions);
    }
    return new Space(
        name, source, description, strategy, timing, fixed, dimensions, chartDimensions);
  }

  private Node compose(String text) {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    Yaml yaml = new Yaml(new SafeConstructor(options));
    try {
      List<Node> documents = new ArrayList<>();
      yaml.composeAll(new StringReader(text)).forEach(documents::add);
      if (documents.size() > 1) {
        throw new SpaceException(
            source,
            documents.get(1).getStartMark().getLine() + 1,
            null,
            "more than one YAML document (---); keep one space per file");
      }
      return documents.isEmpty() ? null : documents.get(0);
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String problem =
          (e.getContext() == null ? "" : e.getContext() + ", ")
              + (e.getProblem() == null ? "" : e.getProblem());
      throw new SpaceException(
          source,
          mark == null ? 0 : mark.getLine() + 1,
          null,
          "not valid YAML: "
              + problem.strip()
              + "; check the indentation and quoting on that line");
    } catch (YAMLException e) {
      throw new SpaceException(source, 0, null, "not valid YAML: " + e.getMessage());
    }
  }

  private Timing timing(NodeTuple section) {
    MappingNode node =
        mapping(
            section.getValueNode(),
            "timing",
            "write timing as a mapping, e.g. timing: {warmup: 10s, measure: 15s, repeats: 1}");
    Timing timing = Timing.DEFAULT;
    // warmup_max last, so that it is checked against the warm-up the file sets, wherever it is
    List<NodeTuple> tuples = new ArrayList<>(entries(node, "timing.", TIMING_KEYS).values());
    tuples.sort(Comparator.comparing(tuple -> key(tuple).equals("warmup_max")));
    for (NodeTuple tuple : tuples) {
      String key = key(tuple);
      Object value = scalar(tuple.getValueNode(), "timing." + key);
      try {
        timing =
            switch (key) {
              case "warmup" -> timing.withWarmup(Durations.parse(value));
              case "warmup_max" -> timing.withWarmupMax(Durations.parse(value));
              case "measure" -> timing.withMeasure(Durations.parse(value));
              case "drain" -> timing.withDrain(Durations.parse(value));
              default -> timing.withRepeats(repeats(value));
            };
      } catch (IllegalArgumentException e) {
        throw error(tuple.getValueNode(), "timing." + key, e.getMessage());
      }
    }
    return timing;
  }

  private static int repeats(Object value) {
    if (value instanceof Long number && number >= 1 && number <= 100) {
      return number.intValue();
    }
    throw new IllegalArgumentException(
        "repeats must be a whole number from 1 to 100, not '" + value + "'");
  }

  private List<Dimension> dimensions(NodeTuple section, Map<String, Node> fixedNodes) {
    MappingNode node =
        mapping(
            section.getValueNode(),
            "dimensions",
            "write dimensions as a mapping of knob names to lists, e.g. edge_kafka_sinks: [1, 2, 4]");
    List<Dimension> dimensions = new ArrayList<>();
    for (NodeTuple tuple : entries(node, "dimensions.", null).values()) {
      String name = key(tuple);
      String where = "dimensions." + name;
      Knob knob =
          Knobs.find(name)
              .orElseThrow(() -> error(tuple.getKeyNode(), where, Knobs.whyUnknown(name)));
      if (fixedNodes.containsKey(name)) {
        throw error(
            tuple.getKeyNode(),
            where,
            "also fixed in the "
                + (name.startsWith(Knobs.LOAD_PREFIX) ? "load:" : "set:")
                + " section (line "
                + (fixedNodes.get(name).getStartMark().getLine() + 1)
                + "); keep one of the two");
      }
      List<Node> valueNodes =
          tuple.getValueNode() instanceof SequenceNode sequence
                  && !(knob.defaultValue() instanceof List && !isSequenceOfSequences(sequence))
              ? sequence.getValue()
              : List.of(tuple.getValueNode());
      if (valueNodes.isEmpty()) {
        throw error(tuple.getValueNode(), where, "has no values; give at least one, e.g. [1, 2]");
      }
      List<Object> values = new ArrayList<>();
      for (Node valueNode : valueNodes) {
        Object value = knobValue(knob, valueNode, where);
        if (values.contains(value)) {
          throw error(valueNode, where, "lists " + value + " twice; give each value once");
        }
        values.add(value);
      }
      dimensions.add(new Dimension(knob, values, tuple.getKeyNode().getStartMark().getLine() + 1));
    }
    if (dimensions.isEmpty()) {
      throw error(
          section.getValueNode(), "dimensions", "is empty; name at least one knob to sweep");
    }
    return dimensions;
  }

  private static boolean isSequenceOfSequences(SequenceNode sequence) {
    return !sequence.getValue().isEmpty()
        && sequence.getValue().stream().allMatch(n -> n instanceof SequenceNode);
  }

  /**
   * Checks the load of the baseline and the combinations of load settings the space cannot ever
   * run.
   */
  private void checkLoad(
      Map<String, Object> fixed, List<Dimension> dimensions, Map<String, NodeTuple> sections) {
    Map<String, Object> load = new LinkedHashMap<>();
    fixed.forEach(
        (key, value) -> {
          if (key.startsWith(Knobs.LOAD_PREFIX)) {
            load.put(key, value);
          }
        });
    for (Dimension dimension : dimensions) {
      if (dimension.knob().kind() == Knob.Kind.LOAD) {
        load.put(dimension.name(), dimension.values().get(0));
      }
    }
    try {
      LoadPlan.of(new Settings(load)).settings(NOWHERE, Duration.ofSeconds(1));
    } catch (IllegalArgumentException e) {
      NodeTuple section = sections.get("load");
      Node at = section != null ? section.getKeyNode() : sections.get("dimensions").getKeyNode();
      throw error(at, "load", e.getMessage());
    }
  }

  private List<String> chartDimensions(NodeTuple section, List<Dimension> dimensions) {
    MappingNode node =
        mapping(
            section.getValueNode(),
            "report",
            "write report settings as a mapping, e.g. report: {chart_dimensions: [a, b]}");
    List<String> names = List.of();
    for (NodeTuple tuple : entries(node, "report.", REPORT_KEYS).values()) {
      if (!(tuple.getValueNode() instanceof SequenceNode sequence)
          || sequence.getValue().size() != 2) {
        throw error(
            tuple.getValueNode(),
            "report.chart_dimensions",
            "must list exactly two dimensions," + " e.g. [edge_kafka_sinks, core_hdfs_sinks]");
      }
      List<String> chosen = new ArrayList<>();
      for (Node item : sequence.getValue()) {
        Object value = scalar(item, "report.chart_dimensions");
        String name = String.valueOf(value);
        if (dimensions.stream().noneMatch(d -> d.name().equals(name))) {
          throw error(
              item,
              "report.chart_dimensions",
              "'"
                  + name
                  + "' is not one of the dimensions ("
                  + String.join(", ", dimensions.stream().map(Dimension::name).toList())
                  + ")");
        }
        chosen.add(name);
      }
      if (chosen.get(0).equals(chosen.get(1))) {
        throw error(
            tuple.getValueNode(),
            "report.chart_dimensions",
            "names " + chosen.get(0) + " twice; choose two different dimensions");
      }
      names = chosen;
    }
    return names;
  }

  private Object knobValue(Knob knob, Node node, String where) {
    Object raw = value(node, where);
    try {
      return knob.value(raw);
    } catch (IllegalArgumentException e) {
      String message = e.getMessage();
      String problem =
          message.startsWith("Invalid value")
              ? message.replaceAll("\\.$", "")
              : "value " + display(raw) + " " + message;
      throw error(
          node,
          where,
          problem + "; see `flafka sweep --list-knobs` for what " + knob.name() + " accepts");
    }
  }

  private static String display(Object value) {
    return value instanceof String ? "'" + value + "'" : String.valueOf(value);
  }

  private static List<String> loadKeys() {
    List<String> keys = new ArrayList<>();
    for (String name : Knobs.all().keySet()) {
      if (name.startsWith(Knobs.LOAD_PREFIX)) {
        keys.add(name.substring(Knobs.LOAD_PREFIX.length()));
      }
    }
    return keys;
  }

  /**
   * The entries of a mapping by key; unknown keys (when {@code allowed} is given) and repeated keys
   * are errors.
   */
  private Map<String, NodeTuple> entries(MappingNode node, String prefix, List<String> allowed) {
    Map<String, NodeTuple> entries = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    for (NodeTuple tuple : node.getValue()) {
      String key = key(tuple);
      if (allowed != null && !allowed.contains(key)) {
        throw error(
            tuple.getKeyNode(),
            prefix + key,
            "unknown key"
                + suggestion(key, allowed)
                + "; valid keys "
                + (prefix.isEmpty()
                    ? ""
                    : "under " + prefix.substring(0, prefix.length() - 1) + ": ")
                + "are "
                + String.join(", ", allowed));
      }
      if (!seen.add(key)) {
        throw error(tuple.getKeyNode(), prefix + key, "given twice; keep one");
      }
      entries.put(key, tuple);
    }
    return entries;
  }

  private static String suggestion(String key, List<String> allowed) {
    return allowed.stream()
        .filter(candidate -> AgentTemplates.editDistance(key, candidate) <= 2)
        .findFirst()
        .map(candidate -> " (did you mean " + candidate + "?)")
        .orElse("");
  }

  private String key(NodeTuple tuple) {
    if (!(tuple.getKeyNode() instanceof ScalarNode scalar)) {
      throw error(tuple.getKeyNode(), null, "a key must be a plain name");
    }
    return scalar.getValue();
  }

  private MappingNode mapping(Node node, String where, String fix) {
    if (node instanceof MappingNode mapping) {
      return mapping;
    }
    throw error(node, where, "must be a mapping; " + fix);
  }

  private String string(NodeTuple tuple, String where) {
    Object value = scalar(tuple.getValueNode(), where);
    if (!(value instanceof String text)) {
      throw error(tuple.getValueNode(), where, "must be text, not " + value);
    }
    return text;
  }

  private Object scalar(Node node, String where) {
    if (!(node instanceof ScalarNode)) {
      throw error(node, where, "must be a single value, not a list or mapping");
    }
    return value(node, where);
  }

  /** A node as plain Java: strings, Longs, Doubles, Booleans, lists and maps of those. */
  private Object value(Node node, String where) {
    if (node instanceof ScalarNode scalar) {
      Tag tag = scalar.getTag();
      String text = scalar.getValue();
      try {
        if (tag.equals(Tag.INT)) {
          return Long.parseLong(text.replace("_", ""));
        }
        if (tag.equals(Tag.FLOAT)) {
          return Double.parseDouble(text.replace("_", ""));
        }
      } catch (NumberFormatException e) {
        throw error(
            node, where, "'" + text + "' is not a plain decimal number; write it in digits");
      }
      if (tag.equals(Tag.BOOL)) {
        return Boolean.parseBoolean(text.toLowerCase(Locale.ROOT))
            || text.equalsIgnoreCase("yes")
            || text.equalsIgnoreCase("on");
      }
      if (tag.equals(Tag.NULL)) {
        throw error(node, where, "has no value; write one, or remove the key");
      }
      return text;
    }
    if (node instanceof SequenceNode sequence) {
      List<Object> items = new ArrayList<>();
      for (Node item : sequence.getValue()) {
        items.add(value(item, where));
      }
      return items;
    }
    MappingNode mapping = (MappingNode) node;
    Map<String, Object> map = new LinkedHashMap<>();
    for (NodeTuple tuple : mapping.getValue()) {
      map.put(key(tuple), value(tuple.getValueNode(), where));
    }
    return map;
  }

  private SpaceException error(Node node, String key, String problem) {
    return new SpaceException(
        source, node == null ? 0 : node.getStartMark().getLine() + 1, key, problem);
  }

  private static String fileName(Path path) {
    String name = path.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
