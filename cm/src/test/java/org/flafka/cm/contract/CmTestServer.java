package org.flafka.cm.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import org.flafka.cm.contract.CmSpecValidator.Strictness;

/**
 * A stand-in Cloudera Manager for tests, on 127.0.0.1 (HTTP or HTTPS, port chosen by the OS).
 * Handlers are registered per spec operation ({@code on("GET", "/clusters", ...)}); the server
 * checks HTTP basic auth like CM (401 with realm "Cloudera Manager"), answers {@code GET
 * /api/version}, and runs <em>every</em> request through {@link CmSpecValidator} (DECLARED_ONLY)
 * and every response through it at the strictness the handler chose. Tests end with {@link
 * #assertConforms()}.
 */
public final class CmTestServer implements AutoCloseable {

  /** A request as received; {@code query} and {@code pathParameters} are decoded. */
  public record Request(
      String method,
      String rawPath,
      String rawQuery,
      Map<String, String> query,
      Map<String, String> pathParameters,
      String contentType,
      String body,
      int apiVersion) {}

  /** A response, and how strictly the validator judges its body. */
  public record Response(int status, String contentType, String body, Strictness strictness) {
    public static Response json(int status, JsonNode body, Strictness strictness) {
      return new Response(status, "application/json", body.toString(), strictness);
    }

    public static Response empty(int status) {
      return new Response(status, null, "", Strictness.SPEC);
    }

    /** An error as a JSON {@code {"message": ...}} body (error bodies are not in the spec). */
    public static Response error(int status, String message) {
      return new Response(
          status,
          "application/json",
          "{\"message\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}",
          Strictness.SPEC);
    }
  }

  private static final Pattern VERSIONED = Pattern.compile("/api/v(\\d+)(/.*)");

  private final HttpServer server;
  private final String scheme;
  private final String expectedAuthorization;
  private final CmSpecValidator validator = new CmSpecValidator();
  private final Map<String, Function<Request, Response>> handlers = new ConcurrentHashMap<>();
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());
  private volatile String versionAnswer = "v32";

  private CmTestServer(HttpServer server, String scheme, String user, String password) {
    this.server = server;
    this.scheme = scheme;
    this.expectedAuthorization =
        "Basic "
            + Base64.getEncoder()
                .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    server.createContext("/", this::handle);
    server.start();
  }

  /** A plain-HTTP server accepting {@code user}/{@code password}. */
  public static CmTestServer http(String user, String password) {
    try {
      return new CmTestServer(HttpServer.create(loopback(), 0), "http", user, password);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An HTTPS server presenting the key in {@code tls}. */
  public static CmTestServer https(SSLContext tls, String user, String password) {
    try {
      HttpsServer server = HttpsServer.create(loopback(), 0);
      server.setHttpsConfigurator(new HttpsConfigurator(tls));
      return new CmTestServer(server, "https", user, password);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  /** {@code http://127.0.0.1:<port>} (or https). */
  public String url() {
    return scheme + "://127.0.0.1:" + server.getAddress().getPort();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** What {@code GET /api/version} answers (default {@code v32}). */
  public CmTestServer versionAnswer(String answer) {
    this.versionAnswer = answer;
    return this;
  }

  /**
   * Answers {@code method template} (a spec path template, without /api/vN) with {@code handler}.
   */
  public CmTestServer on(String method, String template, Function<Request, Response> handler) {
    handlers.put(method + " " + template, handler);
    return this;
  }

  /** Every request so far, in order. */
  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests to one operation. */
  public List<Request> requests(String method, String template) {
    return requests().stream()
        .filter(r -> r.method().equals(method) && matches(r, template))
        .toList();
  }

  private boolean matches(Request request, String template) {
    Matcher versioned = VERSIONED.matcher(request.rawPath());
    if (!versioned.matches()) {
      return template.equals(request.rawPath());
    }
    return CmApiSpec.get()
        .find(request.method(), segments(versioned.group(2)))
        .map(m -> m.operation().template().equals(template))
        .orElse(false);
  }

  public List<String> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  /** Fails if any request or response so far broke the spec. */
  public void assertConforms() {
    List<String> found = violations();
    if (!found.isEmpty()) {
      throw new AssertionError(
          "exchanges that break the CM v32 spec:\n  " + CmSpecValidator.report(found));
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String rawPath = exchange.getRequestURI().getRawPath();
      String rawQuery = exchange.getRequestURI().getRawQuery();
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!expectedAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"Cloudera Manager\"");
        send(
            exchange,
            new Response(
                401, "text/html", "<html><body>Unauthorized</body></html>", Strictness.SPEC));
        return;
      }
      violations.addAll(
          validator.validateRequest(
              method, rawPath, rawQuery, contentType, body, Strictness.DECLARED_ONLY));
      Response response = respond(method, rawPath, rawQuery, contentType, body);
      violations.addAll(
          validator.validateResponse(
              method,
              rawPath,
              response.status(),
              response.contentType(),
              response.body(),
              response.strictness()));
      send(exchange, response);
    } catch (RuntimeException e) {
      violations.add("test server failed: " + e);
      throw e;
    }
  }

  private Response respond(
      String method, String rawPath, String rawQuery, String contentType, String body) {
    if (rawPath.equals("/api/version")) {
      requests.add(
          new Request(method, rawPath, rawQuery, decode(rawQuery), Map.of(), contentType, body, 0));
      return new Response(200, "text/plain", versionAnswer, Strictness.SPEC);
    }
    Matcher versioned = VERSIONED.matcher(rawPath);
    if (!versioned.matches()) {
      return Response.error(404, "no such page " + rawPath);
    }
    Optional<CmApiSpec.Match> match = CmApiSpec.get().find(method, segments(versioned.group(2)));
    if (match.isEmpty()) {
      return Response.error(404, "no such API call " + method + " " + rawPath);
    }
    Request request =
        new Request(
            method,
            rawPath,
            rawQuery,
            decode(rawQuery),
            match.get().pathParameters(),
            contentType,
            body,
            Integer.parseInt(versioned.group(1)));
    requests.add(request);
    Function<Request, Response> handler =
        handlers.get(method + " " + match.get().operation().template());
    if (handler == null) {
      violations.add("the test registered no handler for " + match.get().operation());
      return Response.error(500, "no handler for " + match.get().operation());
    }
    return handler.apply(request);
  }

  private static List<String> segments(String path) {
    List<String> segments = new ArrayList<>();
    for (String raw : path.substring(1).split("/", -1)) {
      segments.add(URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8));
    }
    return segments;
  }

  private static Map<String, String> decode(String rawQuery) {
    Map<String, String> query = new LinkedHashMap<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        String name = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        query.put(
            URLDecoder.decode(name, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      }
    }
    return query;
  }

  private static void send(HttpExchange exchange, Response response) throws IOException {
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    if (response.contentType() != null) {
      exchange.getResponseHeaders().add("Content-Type", response.contentType());
    }
    exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
