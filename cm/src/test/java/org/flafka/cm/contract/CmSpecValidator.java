package org.flafka.cm.contract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.networknt.schema.Error;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks one HTTP exchange with Cloudera Manager against the v32 OpenAPI spec ({@link CmApiSpec}):
 * the operation exists for the method and path ({@code /api/vNN} prefix stripped, template matched,
 * segments decoded); every path and query parameter is declared and of the declared type and enum;
 * the request body matches the operation's request schema; the response status is a declared
 * success and its body matches the response schema ({@code $ref}, {@code allOf}, types, enums,
 * arrays, required properties and {@code additionalProperties} as the spec says, by networknt
 * json-schema-validator with the OpenAPI 3.0 dialect).
 *
 * <p>Beyond the schemas, {@link Strictness#DECLARED_ONLY} also reports properties the v32 schemas
 * do not declare (the spec itself allows them, since no schema closes {@code
 * additionalProperties}); use it for what this project produces (the client's requests, the
 * emulator's responses), and {@link Strictness#SPEC} for recorded real responses from newer
 * servers.
 *
 * <p>Known departures the validator accepts, each documented in {@code
 * docs/reference/cloudera-manager.md}:
 *
 * <ul>
 *   <li>a 2xx status other than the one declared, when the operation declares exactly one 2xx (the
 *       spec says 201 for POST and 204 for PUT; docs/reference/cloudera-manager.md: real servers
 *       may answer 200);
 *   <li>an empty body on a 204, even where the spec attaches a schema to 204;
 *   <li>{@code GET /api/version}, which is outside the versioned API and not in the spec: it must
 *       answer 2xx with a plain version such as {@code v32};
 *   <li>error responses (4xx, 5xx): the spec declares none, so their bodies are not checked;
 *   <li>the in-memory {@link CmApiSpec#AMENDMENTS}.
 * </ul>
 *
 * Every method returns the list of violations, empty when the exchange conforms.
 */
public final class CmSpecValidator {

  /** How strictly to judge JSON bodies. */
  public enum Strictness {
    /** Exactly what the spec says. */
    SPEC,
    /** The spec, and no property that the v32 schemas do not declare. */
    DECLARED_ONLY
  }

  private static final Pattern VERSIONED = Pattern.compile("/api/v(\\d+)(/.*)");
  private static final Pattern VERSION_ANSWER = Pattern.compile("v\\d{1,3}");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final CmApiSpec spec;
  private final ObjectMapper json = new ObjectMapper();

  public CmSpecValidator() {
    this(CmApiSpec.get());
  }

  public CmSpecValidator(CmApiSpec spec) {
    this.spec = spec;
  }

  /**
   * Checks a request.
   *
   * @param rawPath the path as sent, percent-encoded, with its {@code /api/vNN} prefix
   * @param rawQuery the query as sent (percent-encoded), or null
   * @param contentType the request's Content-Type, or null
   * @param body the request body, empty or null for none
   */
  public List<String> validateRequest(
      String method,
      String rawPath,
      String rawQuery,
      String contentType,
      String body,
      Strictness strictness) {
    List<String> violations = new ArrayList<>();
    if (rawPath.equals("/api/version")) {
      if (!method.equals("GET")) {
        violations.add(method + " /api/version: only GET is defined");
      }
      if (rawQuery != null && !rawQuery.isEmpty()) {
        violations.add("GET /api/version takes no query parameters, got '" + rawQuery + "'");
      }
      return violations;
    }
    Optional<CmApiSpec.Match> found = match(method, rawPath, violations);
    if (found.isEmpty()) {
      return violations;
    }
    CmApiSpec.Operation operation = found.get().operation();
    checkParameters(
        operation,
        found.get().pathParameters(),
        parseQuery(rawQuery, operation, violations),
        violations);
    checkRequestBody(operation, contentType, body, strictness, violations);
    return violations;
  }

  /**
   * Checks a response to the request {@code method rawPath}.
   *
   * @param contentType the response's Content-Type, or null
   * @param body the response body, empty or null for none
   */
  public List<String> validateResponse(
      String method,
      String rawPath,
      int status,
      String contentType,
      String body,
      Strictness strictness) {
    List<String> violations = new ArrayList<>();
    String text = body == null ? "" : body;
    if (status / 100 != 2) {
      return violations;
    }
    if (rawPath.equals("/api/version")) {
      if (!VERSION_ANSWER.matcher(text.strip()).matches()) {
        violations.add("GET /api/version answered '" + text + "', not an API version such as v32");
      }
      return violations;
    }
    Optional<CmApiSpec.Match> found = match(method, rawPath, violations);
    if (found.isEmpty()) {
      return violations;
    }
    CmApiSpec.Operation operation = found.get().operation();
    String where = operation + " response " + status;
    JsonNode responses = operation.node().path("responses");
    String declared = Integer.toString(status);
    if (!responses.has(declared)) {
      List<String> successes = new ArrayList<>();
      responses
          .fieldNames()
          .forEachRemaining(
              code -> {
                if (code.startsWith("2")) {
                  successes.add(code);
                }
              });
      if (successes.size() != 1) {
        violations.add(where + ": status not declared; the spec declares " + successes);
        return violations;
      }
      declared = successes.get(0);
    }
    JsonNode content = responses.path(declared).path("content");
    if (text.isEmpty()) {
      if (status != 204 && content.size() > 0) {
        violations.add(where + ": empty body; the spec declares " + describe(content));
      }
      return violations;
    }
    if (content.size() == 0) {
      violations.add(where + ": has a body; the spec declares none");
      return violations;
    }
    String mediaType = mediaType(contentType);
    if (!content.has(mediaType)) {
      violations.add(
          where + ": Content-Type '" + contentType + "'; the spec declares " + describe(content));
      return violations;
    }
    String pointer =
        operation.pointer()
            + "/responses/"
            + declared
            + "/content/"
            + CmApiSpec.escape(mediaType)
            + "/schema";
    checkBody(where + " body", pointer, mediaType, text, strictness, violations);
    return violations;
  }

  // ---------------------------------------------------------------------------------------------------------

  private Optional<CmApiSpec.Match> match(String method, String rawPath, List<String> violations) {
    Matcher versioned = VERSIONED.matcher(rawPath);
    if (!versioned.matches()) {
      violations.add(method + " " + rawPath + ": not under /api/vNN");
      return Optional.empty();
    }
    List<String> segments = new ArrayList<>();
    for (String raw : versioned.group(2).substring(1).split("/", -1)) {
      segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
    }
    Optional<CmApiSpec.Match> found = spec.find(method, segments);
    if (found.isEmpty()) {
      List<String> methods = spec.methodsAt(segments);
      violations.add(
          method
              + " "
              + rawPath
              + ": "
              + (methods.isEmpty()
                  ? "no such path in the v32 spec"
                  : "the spec defines only " + methods + " on this path"));
    }
    return found;
  }

  private Map<String, List<String>> parseQuery(
      String rawQuery, CmApiSpec.Operation operation, List<String> violations) {
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      if (eq < 0) {
        violations.add(operation + ": query parameter '" + pair + "' has no value");
        continue;
      }
      String name = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      query.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
    return query;
  }

  private void checkParameters(
      CmApiSpec.Operation operation,
      Map<String, String> pathValues,
      Map<String, List<String>> queryValues,
      List<String> violations) {
    JsonNode parameters = operation.node().path("parameters");
    Set<String> declaredQuery = new LinkedHashSet<>();
    for (int i = 0; i < parameters.size(); i++) {
      JsonNode parameter = parameters.get(i);
      String name = parameter.path("name").asText();
      String in = parameter.path("in").asText();
      String schemaPointer = operation.pointer() + "/parameters/" + i + "/schema";
      JsonNode schema = parameter.path("schema");
      List<String> values;
      if (in.equals("path")) {
        values = pathValues.containsKey(name) ? List.of(pathValues.get(name)) : List.of();
      } else if (in.equals("query")) {
        declaredQuery.add(name);
        values = queryValues.getOrDefault(name, List.of());
      } else {
        continue;
      }
      String where = operation + " " + in + " parameter '" + name + "'";
      if (values.isEmpty()) {
        if (parameter.path("required").asBoolean(false)) {
          violations.add(where + ": required but missing");
        }
        continue;
      }
      boolean isArray = schema.path("type").asText().equals("array");
      if (!isArray && values.size() > 1) {
        violations.add(where + ": given " + values.size() + " times, declared as a single value");
      }
      JsonNode typed =
          isArray ? arrayOf(values, schema.path("items")) : typed(values.get(0), schema);
      for (Error error : spec.schema(schemaPointer).validate(typed)) {
        violations.add(where + " = '" + String.join(",", values) + "': " + error.getMessage());
      }
    }
    for (String name : queryValues.keySet()) {
      if (!declaredQuery.contains(name)) {
        violations.add(
            operation
                + ": query parameter '"
                + name
                + "' is not declared (declared: "
                + declaredQuery
                + ")");
      }
    }
  }

  private static JsonNode arrayOf(List<String> values, JsonNode itemSchema) {
    ArrayNode array = NODES.arrayNode();
    values.forEach(v -> array.add(typed(v, itemSchema)));
    return array;
  }

  /**
   * The string as the JSON value its schema type expects, or as a string when it is not one (so the
   * type fails).
   */
  private static JsonNode typed(String value, JsonNode schema) {
    switch (schema.path("type").asText()) {
      case "boolean":
        return value.equals("true") || value.equals("false")
            ? NODES.booleanNode(Boolean.parseBoolean(value))
            : NODES.textNode(value);
      case "number":
      case "integer":
        try {
          return NODES.numberNode(new BigDecimal(value));
        } catch (NumberFormatException e) {
          return NODES.textNode(value);
        }
      default:
        return NODES.textNode(value);
    }
  }

  private void checkRequestBody(
      CmApiSpec.Operation operation,
      String contentType,
      String body,
      Strictness strictness,
      List<String> violations) {
    JsonNode requestBody = operation.node().path("requestBody");
    boolean hasBody = body != null && !body.isEmpty();
    if (!hasBody) {
      if (requestBody.path("required").asBoolean(false)) {
        violations.add(operation + ": request body required but missing");
      }
      return;
    }
    if (requestBody.isMissingNode()) {
      violations.add(operation + ": takes no request body, got '" + excerpt(body) + "'");
      return;
    }
    String mediaType = mediaType(contentType);
    JsonNode content = requestBody.path("content");
    if (!content.has(mediaType)) {
      violations.add(
          operation
              + " request: Content-Type '"
              + contentType
              + "'; the spec declares "
              + describe(content));
      return;
    }
    checkBody(
        operation + " request body",
        operation.pointer() + "/requestBody/content/" + CmApiSpec.escape(mediaType) + "/schema",
        mediaType,
        body,
        strictness,
        violations);
  }

  private void checkBody(
      String where,
      String schemaPointer,
      String mediaType,
      String body,
      Strictness strictness,
      List<String> violations) {
    if (!mediaType.equals("application/json")) {
      return;
    }
    JsonNode instance;
    try {
      instance = json.readTree(body);
    } catch (JsonProcessingException e) {
      violations.add(
          where + ": not JSON (" + e.getOriginalMessage() + "): '" + excerpt(body) + "'");
      return;
    }
    // allOf repeats a type error once per member: report each once
    Set<String> errors = new LinkedHashSet<>();
    for (Error error : spec.schema(schemaPointer).validate(instance)) {
      errors.add(where + ": " + error.getInstanceLocation() + ": " + error.getMessage());
    }
    violations.addAll(errors);
    if (strictness == Strictness.DECLARED_ONLY) {
      checkDeclared(spec.node(schemaPointer), instance, "$", where, violations, 0);
    }
  }

  /** Reports object properties that the schema (after $ref and allOf) does not declare. */
  private void checkDeclared(
      JsonNode schema,
      JsonNode instance,
      String path,
      String where,
      List<String> violations,
      int depth) {
    if (depth > 64 || schema == null || schema.isMissingNode()) {
      return;
    }
    JsonNode resolved = resolve(schema);
    if (instance.isObject()) {
      Map<String, JsonNode> properties = new LinkedHashMap<>();
      List<JsonNode> additional = new ArrayList<>();
      collectProperties(resolved, properties, additional, 0);
      for (Map.Entry<String, JsonNode> field : instance.properties()) {
        String fieldPath = path + "." + field.getKey();
        JsonNode propertySchema = properties.get(field.getKey());
        if (propertySchema != null) {
          checkDeclared(propertySchema, field.getValue(), fieldPath, where, violations, depth + 1);
        } else if (!additional.isEmpty()) {
          checkDeclared(
              additional.get(0), field.getValue(), fieldPath, where, violations, depth + 1);
        } else {
          violations.add(
              where
                  + ": "
                  + fieldPath
                  + ": property '"
                  + field.getKey()
                  + "' is not declared by the v32 schema (declared: "
                  + properties.keySet()
                  + ")");
        }
      }
    } else if (instance.isArray()) {
      JsonNode items = resolved.path("items");
      for (int i = 0; i < instance.size(); i++) {
        checkDeclared(items, instance.get(i), path + "[" + i + "]", where, violations, depth + 1);
      }
    }
  }

  private void collectProperties(
      JsonNode schema, Map<String, JsonNode> properties, List<JsonNode> additional, int depth) {
    if (depth > 16) {
      return;
    }
    JsonNode resolved = resolve(schema);
    resolved
        .path("properties")
        .properties()
        .forEach(p -> properties.putIfAbsent(p.getKey(), p.getValue()));
    if (resolved.path("additionalProperties").isObject()) {
      additional.add(resolved.get("additionalProperties"));
    }
    for (JsonNode member : resolved.path("allOf")) {
      collectProperties(member, properties, additional, depth + 1);
    }
  }

  private JsonNode resolve(JsonNode schema) {
    JsonNode current = schema;
    for (int hops = 0; current.has("$ref") && hops < 16; hops++) {
      String ref = current.get("$ref").asText();
      if (!ref.startsWith("#")) {
        throw new IllegalStateException("external $ref " + ref + " in the CM spec");
      }
      current = spec.node(ref.substring(1));
    }
    return current;
  }

  private static String mediaType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return "";
    }
    return contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
  }

  private static String describe(JsonNode content) {
    List<String> described = new ArrayList<>();
    content
        .properties()
        .forEach(
            entry -> {
              JsonNode schema = entry.getValue().path("schema");
              String ref = schema.path("$ref").asText("");
              described.add(
                  entry.getKey()
                      + (ref.isEmpty() ? "" : " " + ref.substring(ref.lastIndexOf('/') + 1)));
            });
    return described.toString();
  }

  private static String excerpt(String text) {
    String oneLine = text.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= 120 ? oneLine : oneLine.substring(0, 120) + "...";
  }

  /** Violations of all exchanges, for a test's failure message. */
  public static String report(List<String> violations) {
    return violations.isEmpty() ? "no violations" : String.join("\n  ", violations);
  }
}
