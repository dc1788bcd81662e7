package org.flafka.cm.contract;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.flafka.cm.contract.CmSpecValidator.Strictness;

/**
 * A plain-HTTP proxy on 127.0.0.1 that forwards every call to another CM-like server (the CM
 * emulator) and runs each request and response through {@link CmSpecValidator}: point the client at
 * {@link #url()} and the emulator's whole conversation is checked against the v32 spec. Requests
 * are judged DECLARED_ONLY; responses at the strictness given (DECLARED_ONLY for anything this
 * project serves).
 */
public final class CmValidatingProxy implements AutoCloseable {
  private static final Set<String> FORWARDED_REQUEST_HEADERS =
      Set.of("authorization", "content-type", "accept", "cookie");

  private final HttpServer server;
  private final String target;
  private final Strictness responseStrictness;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final CmSpecValidator validator = new CmSpecValidator();
  private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

  /**
   * Forwards to {@code targetUrl} (e.g. {@code http://127.0.0.1:7180}); judges responses at {@code
   * strictness}.
   */
  public CmValidatingProxy(String targetUrl, Strictness responseStrictness) {
    this.target = targetUrl.replaceAll("/+$", "");
    this.responseStrictness = responseStrictness;
    try {
      this.server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::forward);
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<String> violations() {
    synchronized (violations) {
      return List.copyOf(violations);
    }
  }

  /** Fails if any exchange so far broke the spec. */
  public void assertConforms() {
    List<String> found = violations();
    if (!found.isEmpty()) {
      throw new AssertionError(
          "exchanges that break the CM v32 spec:\n  " + CmSpecValidator.report(found));
    }
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      String rawQuery = uri.getRawQuery();
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String bodyText = new String(body, StandardCharsets.UTF_8);
      violations.addAll(
          validator.validateRequest(
              method, uri.getRawPath(), rawQuery, contentType, bodyText, Strictness.DECLARED_ONLY));
      HttpRequest.Builder request =
          HttpRequest.newBuilder(
                  URI.create(target + uri.getRawPath() + (rawQuery == null ? "" : "?" + rawQuery)))
              .timeout(Duration.ofSeconds(60))
              .method(
                  method,
                  body.length == 0
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofByteArray(body));
      exchange
          .getRequestHeaders()
          .forEach(
              (name, values) -> {
                if (FORWARDED_REQUEST_HEADERS.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                  values.forEach(value -> request.header(name, value));
                }
              });
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      String responseType = response.headers().firstValue("Content-Type").orElse(null);
      violations.addAll(
          validator.validateResponse(
              method,
              uri.getRawPath(),
              response.statusCode(),
              responseType,
              new String(response.body(), StandardCharsets.UTF_8),
              responseStrictness));
      response
          .headers()
          .map()
          .forEach(
              (name, values) -> {
                String lower = name.toLowerCase(java.util.Locale.ROOT);
                if (lower.equals("content-type")
                    || lower.equals("www-authenticate")
                    || lower.equals("set-cookie")) {
                  values.forEach(value -> exchange.getResponseHeaders().add(name, value));
                }
              });
      byte[] out = response.body();
      exchange.sendResponseHeaders(response.statusCode(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        try (OutputStream stream = exchange.getResponseBody()) {
          stream.write(out);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
