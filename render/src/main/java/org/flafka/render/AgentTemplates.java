package org.flafka.render;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Renders the Flume agent templates ({@code agents/<tier>/templates/<tier>.properties.j2}, packaged
 * in this jar) with Jinjava, configured to produce what Ansible's template module produces from the
 * same files: trim_blocks on, lstrip_blocks off, trailing newline kept, undefined variables an
 * error.
 *
 * <p>Variables are checked before rendering: a name the tier's defaults file does not declare is an
 * error (so a typo never silently falls back to a default), and every value is converted to its
 * variable's type and checked against its rules ({@link TemplateVariable#coerce}).
 *
 * <pre>{@code
 * String properties = AgentTemplates.render(Tier.EDGE, Map.of("edge_kafka_sinks", 4, "site", "paris-1"));
 * }</pre>
 */
public final class AgentTemplates {
  private static final int MAX_SUGGESTION_DISTANCE = 3;

  private AgentTemplates() {}

  /**
   * Renders the tier's template with its defaults overlaid by {@code variables}; returns properties
   * text.
   */
  public static String render(Tier tier, Map<String, ?> variables) {
    return renderText(tier.id() + ".properties.j2", templateText(tier), resolve(tier, variables));
  }

  /**
   * Renders {@code template} with exactly {@code variables}; any variable it uses but lacks is an
   * error.
   */
  static String renderText(String templateName, String template, Map<String, ?> variables) {
    RenderResult result = Engine.JINJAVA.renderForResult(template, variables);
    List<TemplateError> errors =
        result.getErrors().stream()
            .filter(error -> error.getSeverity() == TemplateError.ErrorType.FATAL)
            .toList();
    if (!errors.isEmpty()) {
      throw new TemplateRenderException(
          templateName
              + " failed to render: "
              + errors.stream().map(AgentTemplates::describe).collect(Collectors.joining("; ")));
    }
    return result.getOutput();
  }

  /**
   * The tier's defaults overlaid by {@code variables}, each converted to its variable's type:
   * exactly the variables the template sees.
   *
   * @throws TemplateVariableException for an unknown or retired name, an invalid value or a
   *     combination the template refuses
   */
  public static Map<String, Object> resolve(Tier tier, Map<String, ?> variables) {
    Map<String, TemplateVariable> declared = declared(tier);
    Map<String, Object> resolved = new LinkedHashMap<>();
    declared.forEach(
        (name, variable) -> resolved.put(name, variable.coerce(variable.defaultValue())));
    for (Map.Entry<String, ?> entry : variables.entrySet()) {
      TemplateVariable variable = declared.get(entry.getKey());
      if (variable == null) {
        TemplateVariableException retired = VariableRules.retired(tier, entry.getKey());
        throw retired != null ? retired : unknownVariable(tier, entry.getKey(), declared.keySet());
      }
      resolved.put(entry.getKey(), variable.coerce(entry.getValue()));
    }
    VariableRules.check(tier, resolved);
    return Collections.unmodifiableMap(resolved);
  }

  /** Every variable of the tier's template with its default, in the defaults file's order. */
  public static Map<String, Object> defaults(Tier tier) {
    return resolve(tier, Map.of());
  }

  /**
   * Every variable of the tier's template with its type, rules and documentation, in the file's
   * order.
   */
  public static List<TemplateVariable> variables(Tier tier) {
    return List.copyOf(declared(tier).values());
  }

  /** The template's source text, as packaged from {@code agents/<tier>/templates/}. */
  public static String templateText(Tier tier) {
    return resource(tier.templateResource());
  }

  /** The defaults file's text, as packaged from {@code agents/<tier>/templates/}. */
  public static String defaultsText(Tier tier) {
    return resource(tier.defaultsResource());
  }

  private static Map<String, TemplateVariable> declared(Tier tier) {
    return DefaultsFile.parse(tier.id() + "-defaults.yml", defaultsText(tier));
  }

  private static TemplateVariableException unknownVariable(
      Tier tier, String name, Iterable<String> valid) {
    List<String> names = new ArrayList<>();
    valid.forEach(names::add);
    String suggestion =
        names.stream()
            .min(Comparator.comparingInt(candidate -> editDistance(name, candidate)))
            .filter(candidate -> editDistance(name, candidate) <= MAX_SUGGESTION_DISTANCE)
            .map(candidate -> " Did you mean " + candidate + "?")
            .orElse("");
    return new TemplateVariableException(
        "Unknown variable '"
            + name
            + "' for the "
            + tier.id()
            + " template."
            + suggestion
            + " Valid variables: "
            + String.join(", ", names)
            + ".");
  }

  /**
   * Levenshtein distance, for "did you mean" on a misspelt variable name (also the sweep's knob
   * names).
   */
  public static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }

  private static String describe(TemplateError error) {
    String where = error.getLineno() > 0 ? "line " + error.getLineno() + ": " : "";
    return where + error.getMessage();
  }

  private static String resource(String name) {
    try (InputStream in = AgentTemplates.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(
            "Resource " + name + " is missing from the flafka-render jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read resource " + name, e);
    }
  }

  /** One Jinjava, built on first use (it is thread-safe and costly to build). */
  private static final class Engine {
    static final Jinjava JINJAVA =
        new Jinjava(
            JinjavaConfig.newBuilder()
                .withTrimBlocks(true)
                .withLstripBlocks(false)
                .withKeepTrailingNewline(true)
                .withFailOnUnknownTokens(true)
                .withLegacyOverrides(LegacyOverrides.ALL)
                .build());
  }
}
