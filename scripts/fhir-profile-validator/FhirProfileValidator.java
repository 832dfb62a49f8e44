import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.context.support.DefaultProfileValidationSupport;
import ca.uhn.fhir.parser.IParser;
import ca.uhn.fhir.validation.FhirValidator;
import ca.uhn.fhir.validation.SingleValidationMessage;
import ca.uhn.fhir.validation.ValidationResult;
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
 *   CrdValidator IG_PACKAGE.tgz[,IG_PACKAGE.tgz...] FILE...
 * </pre>
 *
 * Prints one JSON object, {"packages": [...], "files": [{"file", "issues": [{"severity", "location",
 * "message"}]}]}, and exits 0 once it ran: the caller judges the issues. A profile that a resource
 * claims (meta.profile, inside Bundles too) and that no package defines is an error here, where the
 * validator itself would only warn. scripts/crd-validate.sh installs and runs it.
 */
public class CrdValidator {
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: CrdValidator IG_PACKAGE.tgz[,IG_PACKAGE.tgz...] FILE...");
      System.exit(2);
    }
    FhirContext ctx = FhirContext.forR4();
    IParser parser = ctx.newJsonParser();
    PrePopulatedValidationSupport igs = new PrePopulatedValidationSupport(ctx);
    JsonArray packages = new JsonArray();
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
      packages.add(npm.name() + "#" + npm.version() + " (" + count + " conformance resources)");
    }
    ValidationSupportChain chain = new ValidationSupportChain(
        igs,
        new DefaultProfileValidationSupport(ctx),
        new SnapshotGeneratingValidationSupport(ctx),
        new CommonCodeSystemsTerminologyService(ctx),
        new InMemoryTerminologyServerValidationSupport(ctx),
        new UnknownCodeSystemWarningValidationSupport(ctx));
    FhirInstanceValidator module = new FhirInstanceValidator(chain);
    module.setNoTerminologyChecks(false);
    FhirValidator validator = ctx.newValidator().registerValidatorModule(module);

    JsonArray results = new JsonArray();
    for (int i = 1; i < args.length; i++) {
      String path = args[i];
      String text = new String(Files.readAllBytes(new File(path).toPath()), StandardCharsets.UTF_8);
      JsonArray issues = new JsonArray();
      for (String profile : claimedProfiles(JsonParser.parseString(text))) {
        if (chain.fetchStructureDefinition(profile) == null) {
          issues.add(issue("error", "meta.profile", "no package defines the claimed profile " + profile));
        }
      }
      ValidationResult result = validator.validateWithResult(text);
      for (SingleValidationMessage m : result.getMessages()) {
        issues.add(issue(m.getSeverity().getCode(), m.getLocationString(), m.getMessage()));
      }
      JsonObject file = new JsonObject();
      file.addProperty("file", path);
      file.add("issues", issues);
      results.add(file);
    }
    JsonObject report = new JsonObject();
    report.add("packages", packages);
    report.add("files", results);
    System.out.println(new Gson().toJson(report));
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

  private static JsonObject issue(String severity, String location, String message) {
    JsonObject o = new JsonObject();
    o.addProperty("severity", severity);
    o.addProperty("location", location);
    o.addProperty("message", message);
    return o;
  }
}
