package org.flafka.render;

/**
 * A variable the user gave is wrong: an unknown name, or a value of the wrong type or outside its
 * allowed values. The message names the variable, the value and the rule, and says how to fix it.
 */
public class TemplateVariableException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public TemplateVariableException(String message) {
    super(message);
  }
}
