package org.flafka.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's documents hold together: the README stays short, the docs index links every
 * page, every relative link between documents resolves, and nothing points at a document outside
 * the repository.
 */
class DocsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path DOCS = ROOT.resolve("docs");

  /** A Markdown link's target: {@code [text](target)} or {@code [text](target "title")}. */
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

  /** Documents that live outside the repository, which the repository must not point at. */
  private static final Pattern OUTSIDE =
      Pattern.compile("DESIGN\\.md|DEPENDENCIES\\.md|REFERENCE\\.md|\\.\\./shared/");

  /** Folders that hold no documents of ours. */
  private static final Set<String> SKIPPED =
      Set.of(".git", "target", ".venv", "node_modules", ".flafka", "sweep-results");

  @Test
  void theReadmeReadsInTwoMinutes() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    assertTrue(
        readme.length() < 6_000,
        "README.md has "
            + readme.length()
            + " characters; status and figures "
            + "belong in docs/");
  }

  @Test
  void theDocsIndexLinksEveryPage() throws IOException {
    String index = Files.readString(DOCS.resolve("README.md"), StandardCharsets.UTF_8);
    Set<Path> linked = new TreeSet<>();
    for (String target : links(index)) {
      linked.add(DOCS.resolve(target).normalize());
    }
    List<Path> unlinked = new ArrayList<>();
    for (Path page : markdownFiles(DOCS)) {
      if (!page.equals(DOCS.resolve("README.md")) && !linked.contains(page)) {
        unlinked.add(ROOT.relativize(page));
      }
    }
    assertEquals(List.of(), unlinked, "pages that docs/README.md does not link");
  }

  @Test
  void everyRelativeLinkBetweenDocumentsResolves() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path document : markdownFiles(ROOT)) {
      String text = Files.readString(document, StandardCharsets.UTF_8);
      for (String target : links(text)) {
        if (!Files.exists(document.getParent().resolve(target).normalize())) {
          broken.add(ROOT.relativize(document) + " -> " + target);
        }
      }
    }
    assertEquals(List.of(), broken, "links to files that do not exist");
  }

  @Test
  void nothingPointsAtADocumentOutsideTheRepository() throws IOException {
    List<String> pointers = new ArrayList<>();
    try (Stream<Path> files = walk(ROOT)) {
      for (Path file : files.filter(DocsTest::isText).toList()) {
        if (file.startsWith(DOCS.resolve("benchmarks").resolve("history"))) {
          continue; // the diary quotes what was true when it was written
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
          if (OUTSIDE.matcher(lines.get(i)).find()) {
            pointers.add(ROOT.relativize(file) + ":" + (i + 1));
          }
        }
      }
    }
    assertEquals(List.of(), pointers, "pointers to documents outside the repository");
  }

  /** The relative file links of a Markdown text, anchors and web addresses left out. */
  private static List<String> links(String markdown) {
    List<String> targets = new ArrayList<>();
    Matcher matcher = LINK.matcher(markdown);
    while (matcher.find()) {
      String target = matcher.group(1);
      int anchor = target.indexOf('#');
      if (anchor >= 0) {
        target = target.substring(0, anchor);
      }
      if (!target.isEmpty() && !target.contains("://") && !target.startsWith("mailto:")) {
        targets.add(target);
      }
    }
    return targets;
  }

  private static List<Path> markdownFiles(Path under) throws IOException {
    try (Stream<Path> files = walk(under)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".md")).sorted().toList();
    }
  }

  private static Stream<Path> walk(Path under) throws IOException {
    return Files.walk(under)
        .filter(Files::isRegularFile)
        .filter(
            file ->
                under.relativize(file).toString().isEmpty()
                    || noSkippedFolder(ROOT.relativize(file)));
  }

  private static boolean noSkippedFolder(Path relative) {
    for (Path part : relative) {
      if (SKIPPED.contains(part.toString())) {
        return false;
      }
    }
    return true;
  }

  private static boolean isText(Path file) {
    String name = file.getFileName().toString();
    return Stream.of(
                ".java", ".md", ".xml", ".yml", ".yaml", ".j2", ".py", ".properties", ".sh", ".txt")
            .anyMatch(name::endsWith)
        || name.equals("flafka")
        || name.equals("setup")
        || name.equals("run");
  }
}
