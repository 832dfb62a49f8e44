import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.context.support.DefaultProfileValidationSupport;
import ca.uhn.fhir.context.support.IValidationSupport;
import ca.uhn.fhir.parser.IParser;
import ca.uhn.fhir.validation.FhirValidator;
import ca.uhn.fhir.validation.SingleValidationMessage;
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.hl7.fhir.common.hapi.validation.support.CommonCodeSystemsTerminologyService;
import org.hl7.fhir.common.hapi.validation.support.InMemoryTerminologyServerValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.PrePopulatedValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.SnapshotGeneratingValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.UnknownCodeSystemWarningValidationSupport;
import org.hl7.fhir.common.hapi.validation.support.ValidationSupportChain;
import org.hl7.fhir.common.hapi.validation.validator.FhirInstanceValidator;
import org.hl7.fhir.instance.model.api.IBaseResource;
import org.hl7.fhir.r4.model.Questionnaire;
import org.hl7.fhir.r4.model.ValueSet;
import org.hl7.fhir.utilities.npm.NpmPackage;

/**
 * Validates FHIR R4 JSON files against base FHIR and the profiles they claim, offline, with the HL7
 * FHIR validator's instance validator (org.hl7.fhir.validation, the engine of validator_cli.jar) as
 * HAPI FHIR runs it: FHIR R4's own definitions from hapi-fhir-validation-resources-r4, and the
 * conformance resources (StructureDefinitions with snapshots, ValueSets, CodeSystems) of each IG
 * package named. No terminology server: codes of external code systems (NDC, HCPCS, ICD-10-CM) are
 * not looked up, as with validator_cli's `-tx n/a`.
 *
 * <pre>
 *   FhirProfileValidator IG_PACKAGE.tgz[,IG_PACKAGE.tgz...] FILE...
 * </pre>
 *
 * Prints one JSON object and exits 0 once it ran (the caller judges the issues):
 * {"packages": [...], "missing_dependencies": [...], "not_checked": [{"element", "profile",
 * "package"}], "files": [{"file", "issues": [{"severity", "location", "message"}]}]}.
 *
 * A profile that a resource claims (meta.profile, inside Bundles too) and that no package defines is
 * an error here, where the validator itself would only warn. A Questionnaire among the files is what
 * a QuestionnaireResponse among them that names its canonical is checked against (items, answer
 * types), as a FHIR server holding it would.
 *
 * The packages' own dependencies (SDC, US Core...) are on no registry reached here and are not
 * loaded. Where a profile slices on an extension those define, or names one of their profiles as a
 * reference's target, the validator cannot check it and says so as an error (on every extension of
 * the element, for a slicing); that is a limit of this install, not of the resource, so it is
 * reported once per file and element as `information` ("not checked") and listed in `not_checked`.
 * So is a reference to a bundled resource whose profile match failed only for such a limit: the
 * resource claims one of the reference's target profiles and its own validation has no other error.
 *
 * No terminology server either: a code of an external code system that no package holds (ICD-10-CM,
 * HCPCS, CMS place of service, NDC) cannot be checked against a required value set that includes that
 * whole code system (PAS's X12 278 value sets), which the validator reports as errors. Those are
 * reported as `information` ("not checked") too and listed in `codes_not_checked` ({"element",
 * "value_set", "code_system"}); a code of any other system, or a value set that does not include the
 * whole code system, stays an error.
 *
 * Any other issue keeps the validator's severity.
 * scripts/fhir-profile-validate.sh installs and runs it.
 */
public class FhirProfileValidator {
  /** Where the conformance resources of the IG dependencies that may be missing live, by package. */
  private static final Map<String, String> DEPENDENCY_CANONICALS = Map.of(
      "hl7.fhir.uv.sdc", "http://hl7.org/fhir/uv/sdc/",
      "hl7.fhir.us.core", "http://hl7.org/fhir/us/core/",
      "hl7.fhir.us.davinci-hrex", "http://hl7.org/fhir/us/davinci-hrex/",
      "hl7.terminology.r4", "http://terminology.hl7.org/",
      "us.nlm.vsac", "http://cts.nlm.nih.gov/fhir/");

  /** A slice on an extension whose definition is not loaded: the slicing cannot be evaluated. */
  private static final Pattern UNRESOLVED_SLICE = Pattern.compile(
      "^Slicing cannot be evaluated: Problem with use of resolve\\(\\) - profile \\[CanonicalType\\[([^\\]]+)\\]\\] on (\\S+) could not be resolved",
      Pattern.DOTALL);
  /** A slice on an extension whose definition is not loaded, as the validator names it at the element. */
  private static final Pattern UNRESOLVED_SLICE_PROFILE = Pattern.compile(
      "^Slicing cannot be evaluated: Unable to resolve profile CanonicalType\\[([^\\]]+)\\]");
  /**
   * FHIR R5's elements as R4 extensions (PAS's Claim slices its extensions on R5's Claim.encounter):
   * validator_cli makes them itself, HAPI FHIR does not, and no registry reached here serves them.
   */
  private static final String CROSS_VERSION_EXTENSIONS = "http://hl7.org/fhir/5.0/StructureDefinition/extension-";
  private static final String CROSS_VERSION_PACKAGE = "hl7.fhir.uv.xver-r5.r4 (cross-version extensions)";
  /** A reference's target profile that is not loaded. */
  private static final Pattern UNRESOLVED_TARGET = Pattern.compile("^Unable to resolve the profile reference '([^']+)'");
  /** A typed reference whose type only a target profile that is not loaded could allow. */
  private static final Pattern INVALID_TARGET = Pattern.compile(
      "^The type '([^']+)' is not a valid Target for this element \\(must be one of \\[(.*)\\]\\)", Pattern.DOTALL);
  private static final Pattern CANONICAL = Pattern.compile("CanonicalType\\[([^\\]]+)\\]");
  /** A reference whose every target profile is unresolved: the validator names none it could allow. */
  private static final Pattern NO_TARGET = Pattern.compile(
      "^Invalid Resource target type\\. Found (\\S+), but expected one of \\(\\[\\]\\)");
  /** A bundled resource that matched none of a reference's target profiles. */
  private static final Pattern NO_PROFILE_MATCH = Pattern.compile(
      "^Unable to find a profile match for (\\S+) among choices: (.+)$", Pattern.DOTALL);
  /** A code system the validator does not hold, named by the terminology messages. */
  private static final Pattern UNKNOWN_CODE_SYSTEM = Pattern.compile(
      "^(?:Unable to expand ValueSet because CodeSystem could not be found|CodeSystem is unknown and can't be validated): (\\S+)");
  /** Codings none of which is in a required value set. */
  private static final Pattern NOT_IN_REQUIRED_VALUE_SET = Pattern.compile(
      "^None of the codings provided are in the value set '[^']*' \\(([^)|]+)(?:\\|[^)]*)?\\), and a coding from this value set is required\\) \\(codes = ([^)]*)\\)");

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: FhirProfileValidator IG_PACKAGE.tgz[,IG_PACKAGE.tgz...] FILE...");
      System.exit(2);
    }
    FhirContext ctx = FhirContext.forR4();
    IParser parser = ctx.newJsonParser();
    PrePopulatedValidationSupport igs = new PrePopulatedValidationSupport(ctx);
    JsonArray packages = new JsonArray();
    Set<String> loaded = new LinkedHashSet<>();
    Set<String> dependencies = new LinkedHashSet<>();
    for (String path : args[0].split(",")) {
      NpmPackage npm;
      try (InputStream in = new FileInputStream(path)) {
        npm = NpmPackage.fromPackage(in);
      }
      int count = 0;
      for (String name : npm.listResources("StructureDefinition", "ValueSet", "CodeSystem")) {
        try (InputStream in = npm.loadResource(name)) {
          igs.addResource(parser.parseResource(in));
          count++;
        }
      }
      loaded.add(npm.name());
      dependencies.addAll(npm.dependencies());
      packages.add(npm.name() + "#" + npm.version() + " (" + count + " conformance resources)");
    }
    // A dependency is missing when no package of its name was loaded (FHIR R4 itself always is).
    Map<String, String> missing = new TreeMap<>();
    for (String dependency : dependencies) {
      String name = dependency.split("#")[0];
      if (!loaded.contains(name) && !name.equals("hl7.fhir.r4.core")) missing.put(name, dependency);
    }

    // The Questionnaires among the files, by canonical (url and url|version).
    Map<String, IBaseResource> questionnaires = new HashMap<>();
    List<String> texts = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      String text = new String(Files.readAllBytes(new File(args[i]).toPath()), StandardCharsets.UTF_8);
      texts.add(text);
      JsonElement json = JsonParser.parseString(text);
      if (json.isJsonObject() && "Questionnaire".equals(stringOf(json.getAsJsonObject(), "resourceType"))) {
        Questionnaire questionnaire = parser.parseResource(Questionnaire.class, text);
        if (questionnaire.hasUrl()) {
          questionnaires.put(questionnaire.getUrl(), questionnaire);
          if (questionnaire.hasVersion()) {
            questionnaires.put(questionnaire.getUrl() + "|" + questionnaire.getVersion(), questionnaire);
          }
        }
      }
    }

    ValidationSupportChain chain = new ValidationSupportChain(
        igs,
        new QuestionnaireSupport(ctx, questionnaires),
        new DefaultProfileValidationSupport(ctx),
        new SnapshotGeneratingValidationSupport(ctx),
        new CommonCodeSystemsTerminologyService(ctx),
        new InMemoryTerminologyServerValidationSupport(ctx),
        new UnknownCodeSystemWarningValidationSupport(ctx));
    FhirInstanceValidator module = new FhirInstanceValidator(chain);
    module.setNoTerminologyChecks(false);
    FhirValidator validator = ctx.newValidator().registerValidatorModule(module);

    Map<String, JsonObject> notChecked = new TreeMap<>();
    Map<String, JsonObject> codesNotChecked = new TreeMap<>();
    JsonArray results = new JsonArray();
    for (int i = 1; i < args.length; i++) {
      String text = texts.get(i - 1);
      JsonElement document = JsonParser.parseString(text);
      JsonArray issues = new JsonArray();
      for (String profile : claimedProfiles(document)) {
        if (chain.fetchStructureDefinition(profile) == null) {
          issues.add(issue("error", "meta.profile", "no package defines the claimed profile " + profile));
        }
      }
      Set<String> uncheckedHere = new LinkedHashSet<>();
      List<SingleValidationMessage> messages = validator.validateWithResult(text).getMessages();
      // The unresolved target profiles of each element, which a reference naming no allowed type needs.
      Map<String, List<JsonObject>> unresolvedTargets = new HashMap<>();
      for (SingleValidationMessage m : messages) {
        JsonObject entry = notCheckedBy(m.getMessage(), m.getLocationString(), missing);
        if (entry != null) {
          unresolvedTargets.computeIfAbsent(entry.get("element").getAsString(), k -> new ArrayList<>()).add(entry);
        }
      }
      List<SingleValidationMessage> kept = new ArrayList<>();
      for (SingleValidationMessage m : messages) {
        JsonObject entry = notCheckedBy(m.getMessage(), m.getLocationString(), missing);
        if (entry == null) entry = noTargetNotChecked(m.getMessage(), m.getLocationString(), unresolvedTargets);
        if (entry != null) {
          String element = entry.get("element").getAsString();
          String profile = entry.get("profile").getAsString();
          notChecked.put(element + " " + profile, entry);
          if (uncheckedHere.add(element + " " + profile)) {
            issues.add(issue("information", element, "not checked: " + element + " against " + profile + ", as "
                + entry.get("package").getAsString() + " is not loaded"));
          }
          continue;
        }
        List<JsonObject> codes = isError(m) ? codesNotCheckedBy(m.getMessage(), m.getLocationString(), chain) : null;
        if (codes != null) {
          for (JsonObject code : codes) {
            String key = code.get("element").getAsString() + " " + code.get("code_system").getAsString();
            String valueSet = code.get("value_set").getAsString();
            if (!valueSet.isEmpty()) codesNotChecked.put(key + " " + valueSet, code);
            if (uncheckedHere.add(key)) {
              issues.add(issue("information", code.get("element").getAsString(), "not checked: the codes of "
                  + code.get("code_system").getAsString() + " at " + code.get("element").getAsString()
                  + ", as no terminology server holds it offline"));
            }
          }
          continue;
        }
        kept.add(m);
      }
      Set<SingleValidationMessage> limited = limitedMatches(kept, document);
      for (SingleValidationMessage m : kept) {
        if (limited.contains(m)) {
          issues.add(issue("information", m.getLocationString(), "not checked: " + m.getMessage()
              + ", as the resource's own issues are limits of this install"));
        } else {
          issues.add(issue(m.getSeverity().getCode(), m.getLocationString(), m.getMessage()));
        }
      }
      JsonObject file = new JsonObject();
      file.addProperty("file", args[i]);
      file.add("issues", issues);
      results.add(file);
    }
    JsonObject report = new JsonObject();
    report.add("packages", packages);
    JsonArray missingDependencies = new JsonArray();
    for (String dependency : missing.values()) missingDependencies.add(dependency);
    report.add("missing_dependencies", missingDependencies);
    JsonArray notCheckedList = new JsonArray();
    for (JsonObject entry : notChecked.values()) notCheckedList.add(entry);
    report.add("not_checked", notCheckedList);
    JsonArray codesNotCheckedList = new JsonArray();
    for (JsonObject entry : codesNotChecked.values()) codesNotCheckedList.add(entry);
    report.add("codes_not_checked", codesNotCheckedList);
    report.add("files", results);
    System.out.println(new Gson().toJson(report));
  }

  /**
   * What an issue could not check because a missing dependency defines it ({"element", "profile",
   * "package"}), or null for an issue about the resource itself: a slicing on one of its extensions,
   * a reference's target profile, or a typed reference whose type only such a profile allows (US
   * Core's us-core-practitioner for a Practitioner, by the profile's name).
   */
  private static JsonObject notCheckedBy(String message, String location, Map<String, String> missing) {
    if (message == null) return null;
    Matcher slice = UNRESOLVED_SLICE.matcher(message);
    if (slice.find()) return notChecked(slice.group(2), slice.group(1), missing);
    String element = location == null ? "" : location.replaceAll("\\[[0-9]+\\]", "");
    Matcher sliceProfile = UNRESOLVED_SLICE_PROFILE.matcher(message);
    if (sliceProfile.find()) return notChecked(element, sliceProfile.group(1), missing);
    Matcher target = UNRESOLVED_TARGET.matcher(message);
    if (target.find()) return notChecked(element, target.group(1), missing);
    Matcher invalid = INVALID_TARGET.matcher(message);
    if (invalid.find()) {
      String type = invalid.group(1).toLowerCase();
      Matcher canonical = CANONICAL.matcher(invalid.group(2));
      while (canonical.find()) {
        String profile = canonical.group(1);
        String id = profile.substring(profile.lastIndexOf('/') + 1).toLowerCase();
        JsonObject entry = notChecked(element, profile, missing);
        if (entry != null && (id.equals(type) || id.endsWith("-" + type))) return entry;
      }
    }
    return null;
  }

  /**
   * A reference naming no type it allows because none of its target profiles is loaded ("expected one
   * of ([])"), as not checked against the unresolved profile of its type (us-core-practitioner for a
   * Practitioner), or null.
   */
  private static JsonObject noTargetNotChecked(
      String message, String location, Map<String, List<JsonObject>> unresolvedTargets) {
    if (message == null) return null;
    Matcher none = NO_TARGET.matcher(message);
    if (!none.find()) return null;
    String type = none.group(1).toLowerCase();
    String element = location == null ? "" : location.replaceAll("\\[[0-9]+\\]", "");
    for (JsonObject entry : unresolvedTargets.getOrDefault(element, List.of())) {
      String profile = entry.get("profile").getAsString();
      String id = profile.substring(profile.lastIndexOf('/') + 1).toLowerCase();
      if (id.equals(type) || id.endsWith("-" + type)) return entry;
    }
    return null;
  }

  /**
   * The codes an error could not check for want of a terminology server ({"element", "value_set",
   * "code_system"} each), or null when it is about anything else: an unknown code system's own
   * messages, or codings not found in a required value set when every one is of a code system no
   * package holds and the value set includes that whole code system.
   */
  private static List<JsonObject> codesNotCheckedBy(String message, String location, IValidationSupport chain) {
    if (message == null) return null;
    String element = location == null ? "" : location.replaceAll("\\[[0-9]+\\]", "");
    Matcher unknown = UNKNOWN_CODE_SYSTEM.matcher(message);
    if (unknown.find()) {
      return heldCodeSystem(chain, unknown.group(1)) ? null : List.of(codes(element, "", unknown.group(1)));
    }
    Matcher notIn = NOT_IN_REQUIRED_VALUE_SET.matcher(message);
    if (!notIn.find()) return null;
    IBaseResource found = chain.fetchValueSet(notIn.group(1));
    if (!(found instanceof ValueSet valueSet)) return null;
    List<JsonObject> codes = new ArrayList<>();
    for (String coding : notIn.group(2).split(",\\s*")) {
      int hash = coding.lastIndexOf('#');
      if (hash < 0) return null;
      String system = coding.substring(0, hash);
      if (heldCodeSystem(chain, system) || !includesWhole(valueSet, system)) return null;
      codes.add(codes(element, notIn.group(1), system));
    }
    return codes.isEmpty() ? null : codes;
  }

  private static boolean heldCodeSystem(IValidationSupport chain, String system) {
    return chain.fetchCodeSystem(system) != null;
  }

  private static boolean includesWhole(ValueSet valueSet, String system) {
    for (ValueSet.ConceptSetComponent include : valueSet.getCompose().getInclude()) {
      if (system.equals(include.getSystem()) && !include.hasConcept() && !include.hasFilter()
          && !include.hasValueSet()) {
        return true;
      }
    }
    return false;
  }

  private static JsonObject codes(String element, String valueSet, String system) {
    return object("element", element, "value_set", valueSet, "code_system", system);
  }

  /**
   * Each reference's failed profile match that a limit alone explains: the bundled resource it names
   * claims one of the reference's target profiles and has no error of its own left. Repeated, since
   * such a match may be all that a resource another reference names has left.
   */
  private static Set<SingleValidationMessage> limitedMatches(
      List<SingleValidationMessage> issues, JsonElement document) {
    Map<String, Integer> entries = new HashMap<>();
    Map<Integer, List<String>> claimed = new HashMap<>();
    JsonArray bundled = document.isJsonObject() && document.getAsJsonObject().has("entry")
        ? document.getAsJsonObject().getAsJsonArray("entry") : new JsonArray();
    for (int i = 0; i < bundled.size(); i++) {
      JsonObject entry = bundled.get(i).getAsJsonObject();
      String fullUrl = stringOf(entry, "fullUrl");
      if (fullUrl != null) entries.put(fullUrl, i);
      claimed.put(i, entry.has("resource") ? claimedProfiles(entry.get("resource")) : List.of());
    }
    List<SingleValidationMessage> kept = new ArrayList<>(issues);
    Set<SingleValidationMessage> limited = new LinkedHashSet<>();
    boolean dropped = true;
    while (dropped) {
      dropped = false;
      for (SingleValidationMessage m : List.copyOf(kept)) {
        Matcher match = m.getMessage() == null ? null : NO_PROFILE_MATCH.matcher(m.getMessage());
        if (match == null || !match.find() || !entries.containsKey(match.group(1))) continue;
        int index = entries.get(match.group(1));
        List<String> choices = List.of(match.group(2).trim().split(",\\s*"));
        boolean claimsChoice = claimed.get(index).stream().anyMatch(choices::contains);
        String prefix = "Bundle.entry[" + index + "].";
        boolean ownErrors = kept.stream().anyMatch(other -> isError(other)
            && other.getLocationString() != null && other.getLocationString().startsWith(prefix));
        if (claimsChoice && !ownErrors) {
          kept.remove(m);
          limited.add(m);
          dropped = true;
        }
      }
    }
    return limited;
  }

  private static boolean isError(SingleValidationMessage m) {
    String severity = m.getSeverity().getCode();
    return severity.equals("error") || severity.equals("fatal");
  }

  private static JsonObject notChecked(String element, String profile, Map<String, String> missing) {
    if (profile.startsWith(CROSS_VERSION_EXTENSIONS)) return notChecked(element, profile, CROSS_VERSION_PACKAGE);
    for (Map.Entry<String, String> dependency : missing.entrySet()) {
      String base = DEPENDENCY_CANONICALS.get(dependency.getKey());
      if (base != null && profile.startsWith(base)) return notChecked(element, profile, dependency.getValue());
    }
    return null;
  }

  private static JsonObject notChecked(String element, String profile, String dependency) {
    return object("element", element, "profile", profile, "package", dependency);
  }

  /** Every meta.profile in a document, in Bundle entries and contained resources too. */
  private static List<String> claimedProfiles(JsonElement json) {
    List<String> profiles = new ArrayList<>();
    if (json.isJsonArray()) {
      for (JsonElement e : json.getAsJsonArray()) profiles.addAll(claimedProfiles(e));
    } else if (json.isJsonObject()) {
      JsonObject object = json.getAsJsonObject();
      for (String key : object.keySet()) {
        JsonElement value = object.get(key);
        if (key.equals("meta") && value.isJsonObject() && value.getAsJsonObject().has("profile")) {
          for (JsonElement p : value.getAsJsonObject().getAsJsonArray("profile")) profiles.add(p.getAsString());
        } else {
          profiles.addAll(claimedProfiles(value));
        }
      }
    }
    return profiles;
  }

  private static String stringOf(JsonObject object, String key) {
    JsonElement value = object.get(key);
    return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
  }

  private static JsonObject issue(String severity, String location, String message) {
    return object("severity", severity, "location", location, "message", message);
  }

  /** A JSON object of string properties, given as name, value, name, value... */
  private static JsonObject object(String... namesAndValues) {
    JsonObject o = new JsonObject();
    for (int i = 0; i < namesAndValues.length; i += 2) o.addProperty(namesAndValues[i], namesAndValues[i + 1]);
    return o;
  }

  /** Serves the Questionnaires among the files by canonical, as a FHIR server holding them would. */
  private static final class QuestionnaireSupport implements IValidationSupport {
    private final FhirContext ctx;
    private final Map<String, IBaseResource> byCanonical;

    QuestionnaireSupport(FhirContext ctx, Map<String, IBaseResource> byCanonical) {
      this.ctx = ctx;
      this.byCanonical = byCanonical;
    }

    @Override
    public FhirContext getFhirContext() {
      return ctx;
    }

    @Override
    public String getName() {
      return "questionnaires among the files";
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends IBaseResource> T fetchResource(Class<T> type, String uri) {
      IBaseResource found = byCanonical.get(uri);
      if (found == null || (type != null && !type.isInstance(found))) return null;
      return (T) found;
    }
  }
}
