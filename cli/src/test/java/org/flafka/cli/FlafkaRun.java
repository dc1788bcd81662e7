package org.flafka.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One {@code flafka} command line run in this JVM: its exit code, stdout and stderr. */
public record FlafkaRun(int exitCode, String out, String err) {

  /** Runs {@code flafka ARGS} as the launcher would, capturing what it prints. */
  public static FlafkaRun flafka(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Flafka.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new FlafkaRun(code, out.toString(), err.toString());
  }

  /** What a failed assertion shows. */
  @Override
  public String toString() {
    return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
  }
}
