package org.flafka.load;

import java.util.SplittableRandom;

/**
 * Every message the generator can send, prepared once: a {@link MessageFormat.Template} per format
 * and variant, and a schedule of {@value #SCHEDULE_LENGTH} (template, size) picks drawn from the
 * format mix and size distribution with a seed. Message m of a connection uses schedule slot (m +
 * offset) mod {@value #SCHEDULE_LENGTH}; writing it is one array copy and three digit patches, with
 * no allocation or formatting per message.
 */
final class Payloads {
  static final int SCHEDULE_LENGTH = 1 << 16;

  /** Templates are as long as the largest size; this bounds the memory of all variants together. */
  private static final long TEMPLATE_BUDGET_BYTES = 64L * 1024 * 1024;

  private final MessageFormat.Template[] templates;
  private final int[] scheduleTemplate = new int[SCHEDULE_LENGTH];
  private final int[] scheduleSize = new int[SCHEDULE_LENGTH];
  private final int maxSize;

  private Payloads(MessageFormat.Template[] templates, int maxSize) {
    this.templates = templates;
    this.maxSize = maxSize;
  }

  /**
   * Prepares the messages for {@code mix} and {@code sizes}, stamped with {@code epochMillis}.
   *
   * @throws IllegalArgumentException if the smallest size cannot hold some format's header and mark
   */
  static Payloads prepare(FormatMix mix, SizeSpec sizes, long seed, long epochMillis) {
    MessageFormat[] formats = mix.formats();
    int variants =
        (int)
            Math.max(
                1,
                Math.min(
                    MessageFormat.VARIANTS,
                    TEMPLATE_BUDGET_BYTES / ((long) formats.length * sizes.max())));
    MessageFormat.Template[] templates =
        new MessageFormat.Template[MessageFormat.values().length * variants];
    for (MessageFormat format : formats) {
      int need = minSize(format, epochMillis);
      if (need > sizes.min()) {
        throw new IllegalArgumentException(
            "size "
                + sizes.min()
                + " is too small for format "
                + format.flagName()
                + ": its header and mark need "
                + need
                + " bytes");
      }
      for (int variant = 0; variant < variants; variant++) {
        templates[format.ordinal() * variants + variant] =
            format.template(variant, epochMillis, sizes.max(), seed);
      }
    }
    Payloads payloads = new Payloads(templates, sizes.max());
    SplittableRandom random = new SplittableRandom(seed);
    for (int slot = 0; slot < SCHEDULE_LENGTH; slot++) {
      payloads.scheduleTemplate[slot] =
          mix.sample(random).ordinal() * variants + random.nextInt(variants);
      payloads.scheduleSize[slot] = sizes.sample(random);
    }
    return payloads;
  }

  /** The least size every variant of {@code format} needs. */
  static int minSize(MessageFormat format, long epochMillis) {
    int min = 0;
    for (int variant = 0; variant < MessageFormat.VARIANTS; variant++) {
      min = Math.max(min, format.template(variant, epochMillis, 1, 0).minSize());
    }
    return min;
  }

  int maxSize() {
    return maxSize;
  }

  /** The size in bytes of the message in {@code slot}. */
  int sizeOf(int slot) {
    return scheduleSize[slot & (SCHEDULE_LENGTH - 1)];
  }

  /**
   * Writes the message in {@code slot} for {@code device} and {@code sequence} at {@code offset}.
   */
  void write(int slot, byte[] target, int offset, int device, long sequence) {
    int index = slot & (SCHEDULE_LENGTH - 1);
    templates[scheduleTemplate[index]].write(target, offset, scheduleSize[index], device, sequence);
  }
}
