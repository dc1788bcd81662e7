package org.flafka.cm;

import org.flafka.cm.model.ApiCommand;

/**
 * Told the state of a CM command each time {@link CmClient} polls it (and once before the first
 * poll).
 */
@FunctionalInterface
public interface CommandProgress {

  /** Ignores every update. */
  CommandProgress NONE = command -> {};

  void update(ApiCommand command);
}
