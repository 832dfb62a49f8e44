import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.cqframework.cql.cql2elm.CqlCompilerException;
import org.cqframework.cql.cql2elm.CqlCompilerOptions;
import org.cqframework.cql.cql2elm.CqlTranslator;
import org.cqframework.cql.cql2elm.LibraryBuilder;
import org.cqframework.cql.cql2elm.LibraryManager;
import org.cqframework.cql.cql2elm.ModelManager;
import org.cqframework.cql.cql2elm.quick.FhirLibrarySourceProvider;

/**
 * Compiles CQL to ELM JSON with the reference translator, for scripts/generate-dtr-packages.js.
 *
 *   CqlToElm COMMAND...
 *     export:RESOURCE=FILE   copies a source the translator bundles (org/hl7/fhir/FHIRHelpers-4.0.1.cql)
 *     compile:CQL=ELM        compiles a CQL file to ELM JSON
 *
 * Commands run in order in one JVM (loading FHIR's model info takes most of a run). Included libraries
 * resolve to the translator's bundled FHIR sources, so every library compiles against the FHIRHelpers it
 * ships. Any error fails the run (exit 1) after every file was tried, so one run reports them all.
 */
public class CqlToElm {
  public static void main(String[] args) throws IOException {
    // The translator's defaults without annotations: the ELM carries locators for error messages, but
    // not the CQL text again (the Library resource carries that as text/cql). Overload signatures let
    // the engine pick FHIRHelpers' overloaded functions (ToInterval, ToString) without guessing.
    CqlCompilerOptions options =
        new CqlCompilerOptions(
            CqlCompilerException.ErrorSeverity.Info,
            LibraryBuilder.SignatureLevel.Overloads,
            CqlCompilerOptions.Options.EnableLocators,
            CqlCompilerOptions.Options.DisableListDemotion,
            CqlCompilerOptions.Options.DisableListPromotion);
    boolean failed = false;
    for (String arg : args) {
      int colon = arg.indexOf(':');
      int equals = arg.indexOf('=');
      if (colon < 0 || equals < colon) {
        System.err.println("cql-to-elm: not a command: " + arg);
        System.exit(2);
      }
      String command = arg.substring(0, colon);
      String from = arg.substring(colon + 1, equals);
      Path to = Path.of(arg.substring(equals + 1));
      switch (command) {
        case "export" -> export(from, to);
        case "compile" -> failed |= !compile(Path.of(from), to, options);
        default -> {
          System.err.println("cql-to-elm: unknown command " + command);
          System.exit(2);
        }
      }
    }
    System.exit(failed ? 1 : 0);
  }

  private static void export(String resource, Path to) throws IOException {
    try (InputStream source = CqlToElm.class.getClassLoader().getResourceAsStream(resource)) {
      if (source == null) throw new IOException("the translator bundles no " + resource);
      Files.createDirectories(to.toAbsolutePath().getParent());
      Files.write(to, source.readAllBytes());
    }
  }

  private static boolean compile(Path cql, Path elm, CqlCompilerOptions options) throws IOException {
    // A library manager per file, so no compiled library is reused from an earlier file's run.
    LibraryManager libraries = new LibraryManager(new ModelManager(), options);
    libraries.getLibrarySourceLoader().registerProvider(new FhirLibrarySourceProvider());
    CqlTranslator translator = CqlTranslator.fromFile(cql.toFile(), libraries);
    List<CqlCompilerException> errors = translator.getErrors();
    for (CqlCompilerException warning : translator.getWarnings()) report(cql, "warning", warning);
    for (CqlCompilerException error : errors) report(cql, "error", error);
    if (!errors.isEmpty()) return false;
    Files.createDirectories(elm.toAbsolutePath().getParent());
    Files.writeString(elm, translator.toJson() + "\n", StandardCharsets.UTF_8);
    return true;
  }

  private static void report(Path cql, String severity, CqlCompilerException exception) {
    var locator = exception.getLocator();
    String where =
        locator == null ? "" : ":" + locator.getStartLine() + ":" + locator.getStartChar();
    System.err.println(cql + where + ": " + severity + ": " + exception.getMessage());
  }
}
