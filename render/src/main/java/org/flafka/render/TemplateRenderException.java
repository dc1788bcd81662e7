package org.flafka.render;

/**
 * The template itself failed to render (a variable it uses is undefined, a syntax error). With
 * variables that passed validation this is a bug in the template, not the user's mistake.
 */
public class TemplateRenderException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TemplateRenderException(String message) {
    super(message);
  }

  public TemplateRenderException(String message, Throwable cause) {
    super(message, cause);
  }
}
