package org.flafka.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.regex.Pattern;
import org.flafka.edge.layeringfixturea.BadSource;
import org.flafka.edge.layeringfixtureb.BadSink;
import org.flafka.sweep.layeringfixture.BadSweep;
import org.flafka.syslog.layeringfixture.BadParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The layering Maven cannot see (the enforcer's bannedDependencies hold what it can: see the parent
 * pom), checked on the main classes of every module; this module's tests see them all. Each rule is
 * also run on a few deliberately bad classes (packages {@code *.layeringfixture*} in this module's
 * test sources) to show it fails.
 *
 * <p>Rules are by package, so the plugin modules being added ({@code org.flafka.config}, {@code
 * org.flafka.contract}) are covered as soon as they exist.
 */
@Tag("fast")
class LayeringTest {

  /** What runs inside a Flume agent, and the libraries it is built from. */
  static final String[] PLUGINS = {
    "org.flafka.syslog..",
    "org.flafka.config..",
    "org.flafka.contract..",
    "org.flafka.interceptors..",
    "org.flafka.partitioner..",
    "org.flafka.edge..",
    "org.flafka.core.."
  };

  /** The tools around the agents: never a plugin's dependency. */
  static final String[] TOOLS = {
    "org.flafka.cli..",
    "org.flafka.sweep..",
    "org.flafka.bench..",
    "org.flafka.chaos..",
    "org.flafka.load..",
    "org.flafka.audit..",
    "org.flafka.lint..",
    "org.flafka.dashboards..",
    "org.flafka.cm..",
    "org.flafka.stack.."
  };

  static final ArchRule THE_PARSER_DEPENDS_ON_THE_JDK_ONLY =
      classes()
          .that()
          .resideInAPackage("org.flafka.syslog..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "org.flafka.syslog..")
          .because("the parser library is usable without Flume: it depends on the JDK only");

  static final ArchRule PLUGINS_DO_NOT_DEPEND_ON_THE_TOOLS =
      noClasses()
          .that()
          .resideInAnyPackage(PLUGINS)
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(TOOLS)
          .because(
              "an agent's classpath holds the plugins, never the CLI, the sweep or the other tools");

  static final ArchRule ONLY_THE_CLI_DEPENDS_ON_THE_CLI_OR_THE_SWEEP =
      noClasses()
          .that()
          .resideOutsideOfPackages("org.flafka.cli..", "org.flafka.sweep..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.flafka.cli..", "org.flafka.sweep..")
          .because("the CLI is the top of the tree and the sweep is one of its commands");

  static final ArchRule THE_SWEEP_DOES_NOT_DEPEND_ON_THE_CLI =
      noClasses()
          .that()
          .resideInAPackage("org.flafka.sweep..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("org.flafka.cli..")
          .because("the CLI calls the sweep, not the other way round");

  static final ArchRule THE_EDGE_PACKAGES_HAVE_NO_CYCLES =
      slices()
          .matching("org.flafka.edge.(*)..")
          .should()
          .beFreeOfCycles()
          .because("the edge's packages (source, channel, sink) are layered by concern");

  static final ArchRule CASE_CONVERSIONS_NAME_THE_LOCALE =
      noClasses()
          .that()
          .resideInAPackage("org.flafka..")
          .should()
          .callMethod(String.class, "toLowerCase")
          .orShould()
          .callMethod(String.class, "toUpperCase")
          .because(
              "the default locale changes the result (Turkish I): use toLowerCase(Locale.ROOT)");

  /**
   * Test classes are not held to the rules: not test-classes/, nor a module's test-jar
   * (flafka-cm's).
   */
  static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar");

  private static final Pattern SHADED = Pattern.compile(".*/org/flafka/[^/]+/shaded/.*");

  /**
   * Third-party code relocated into one of our jars (flafka-render's Jinjava, Guava) is not ours to
   * hold.
   */
  static final ImportOption NO_SHADED_CLASSES = location -> !location.matches(SHADED);

  private static JavaClasses main;
  private static JavaClasses bad;

  @BeforeAll
  static void importClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(NO_TEST_JARS)
            .withImportOption(NO_SHADED_CLASSES)
            .importPackages("org.flafka");
    bad =
        new ClassFileImporter()
            .importClasses(BadParser.class, BadSource.class, BadSink.class, BadSweep.class);
  }

  @Test
  void theImportHoldsTheMainClassesOfEveryModuleAndNoTestClass() {
    for (String pkg :
        List.of(
            "org.flafka.syslog",
            "org.flafka.interceptors",
            "org.flafka.partitioner",
            "org.flafka.edge",
            "org.flafka.core",
            "org.flafka.render",
            "org.flafka.stack",
            "org.flafka.cm",
            "org.flafka.load",
            "org.flafka.audit",
            "org.flafka.lint",
            "org.flafka.dashboards",
            "org.flafka.sweep",
            "org.flafka.bench",
            "org.flafka.chaos",
            "org.flafka.cli")) {
      assertTrue(
          main.stream()
              .anyMatch(
                  c -> c.getPackageName().equals(pkg) || c.getPackageName().startsWith(pkg + ".")),
          "no main class imported from " + pkg);
    }
    assertTrue(main.contain(Flafka.class));
    assertFalse(main.contain(LayeringTest.class));
    assertFalse(main.contain(BadParser.class));
    assertTrue(
        main.stream().noneMatch(c -> c.getPackageName().contains(".shaded.")),
        "shaded classes imported");
  }

  @Test
  void theParserDependsOnTheJdkOnly() {
    THE_PARSER_DEPENDS_ON_THE_JDK_ONLY.check(main);
  }

  @Test
  void pluginsDoNotDependOnTheTools() {
    PLUGINS_DO_NOT_DEPEND_ON_THE_TOOLS.check(main);
  }

  @Test
  void onlyTheCliDependsOnTheCliOrTheSweep() {
    ONLY_THE_CLI_DEPENDS_ON_THE_CLI_OR_THE_SWEEP.check(main);
    THE_SWEEP_DOES_NOT_DEPEND_ON_THE_CLI.check(main);
  }

  @Test
  void theEdgePackagesHaveNoCycles() {
    THE_EDGE_PACKAGES_HAVE_NO_CYCLES.check(main);
  }

  @Test
  void caseConversionsNameTheLocale() {
    CASE_CONVERSIONS_NAME_THE_LOCALE.check(main);
  }

  /**
   * Each rule fails on the deliberately bad classes, naming the culprit: a rule that cannot fail
   * holds nothing.
   */
  @Test
  void everyRuleFailsOnADeliberatelyBadClass() {
    assertFailsNaming(THE_PARSER_DEPENDS_ON_THE_JDK_ONLY, BadParser.class, "picocli.CommandLine");
    assertFailsNaming(
        PLUGINS_DO_NOT_DEPEND_ON_THE_TOOLS, BadSource.class, "org.flafka.sweep.SweepResult");
    assertFailsNaming(
        ONLY_THE_CLI_DEPENDS_ON_THE_CLI_OR_THE_SWEEP,
        BadSource.class,
        "org.flafka.sweep.SweepResult");
    assertFailsNaming(
        THE_SWEEP_DOES_NOT_DEPEND_ON_THE_CLI, BadSweep.class, "org.flafka.cli.Flafka");
    assertFailsNaming(THE_EDGE_PACKAGES_HAVE_NO_CYCLES, BadSink.class, "layeringfixturea");
    assertFailsNaming(CASE_CONVERSIONS_NAME_THE_LOCALE, BadSink.class, "String.toLowerCase()");
    assertFailsNaming(CASE_CONVERSIONS_NAME_THE_LOCALE, BadSink.class, "String.toUpperCase()");
  }

  private static void assertFailsNaming(ArchRule rule, Class<?> culprit, String target) {
    AssertionError failure =
        assertThrows(AssertionError.class, () -> rule.check(bad), rule.getDescription());
    String message = failure.getMessage();
    assertTrue(message.contains(culprit.getName()) && message.contains(target), message);
  }
}
