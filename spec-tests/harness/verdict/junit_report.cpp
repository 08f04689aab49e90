#include "harness/verdict/junit_report.hpp"

#include <cstdio>
#include <map>

#include "harness/util/utf8_text.hpp"

namespace ssp::harness {
namespace {

// `text` as XML attribute or element content: escaped, valid UTF-8, and
// without the control characters XML 1.0 cannot carry (replaced by U+FFFD).
std::string xml_text(const std::string& text) {
  std::string out;
  for (const char c : with_valid_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      case '\t':
        out += "&#9;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\xef\xbf\xbd";
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  return text;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

struct SuiteCounts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  std::string cases;
};

std::string property(const std::string& name, const std::string& value) {
  return "        <property name=\"" + name + "\" value=\"" + xml_text(value) + "\"/>\n";
}

// The <testcase> of `test`, counted into `suite`.
void add_case(const TestRecord& test, const std::string& candidate, SuiteCounts& suite) {
  const auto dot = test.name.find('.');
  std::string out = "    <testcase name=\"" + xml_text(test.name.substr(dot + 1)) +
                    "\" classname=\"" + xml_text(test.name.substr(0, dot)) + "\" time=\"" +
                    seconds_text(test.seconds) + "\">\n      <properties>\n";
  out += property("section", joined(test.sections));
  out += property("requirement", test.requirement.value_or(""));
  out += property("level", std::string(requirement_level_name(test.level)));
  out += property("backend", test.backend.value_or(""));
  out += property("candidate", candidate);
  out += property("outcome", std::string(test_outcome_name(test.outcome)));
  out += property("counts", test.counts ? "true" : "false");
  if (test.missing_capability) out += property("missing_capability", *test.missing_capability);
  out += "      </properties>\n";
  const auto element = [&](const char* name, const std::string& type, const std::string& message,
                           const std::string& body) {
    out += std::string("      <") + name + " type=\"" + type + "\" message=\"" + xml_text(message) +
           "\"" + (body.empty() ? "/>\n" : ">" + xml_text(body) + "</" + name + ">\n");
  };
  switch (test.outcome) {
    case TestOutcome::passed:
      break;
    case TestOutcome::failed:
      if (test.counts) {
        ++suite.failures;
        element("failure", "failed", first_line(test.reason), test.reason);
      } else {
        out += "      <system-out>" +
               xml_text("failed, not counted (" + std::string(requirement_level_name(test.level)) +
                        " under this profile): " + test.reason) +
               "</system-out>\n";
      }
      break;
    case TestOutcome::unexpected_pass:
      ++suite.failures;
      element("failure", "unexpected-pass", test.reason, "");
      break;
    case TestOutcome::error:
      ++suite.errors;
      element("error", test.harness_error ? "harness-error" : "driver-error",
              first_line(test.reason), test.reason);
      break;
    case TestOutcome::skipped:
      ++suite.skipped;
      element("skipped", "skipped", test.reason, "");
      break;
    case TestOutcome::expected_fail:
      ++suite.skipped;
      element("skipped", "expected-fail", "expected failure: " + test.reason, "");
      break;
  }
  out += "    </testcase>\n";
  ++suite.tests;
  suite.seconds += test.seconds;
  suite.cases += out;
}

// The suite "(what the run exercised)": the profile and the claims as its
// properties; a case per declared area and backend, its counts and MUST
// reach as properties
// (a skipped case when every test of it was skipped); a case per claim; and
// a failing case per reason the run did not exercise enough, so that a CI
// view shows red where the exit status is 2.
void add_exercised_suite(const RunSummary& run, std::vector<std::string>& order,
                         std::map<std::string, SuiteCounts>& suites) {
  const Exercised& exercised = run.exercised;
  if (exercised.parts.empty() && exercised.claims.empty() && exercised.not_exercised.empty()) {
    return;
  }
  const std::string suite = "(what the run exercised)";
  order.push_back(suite);
  SuiteCounts& counts = suites[suite];
  const auto open_case = [&](const std::string& name) {
    ++counts.tests;
    counts.cases += "    <testcase name=\"" + xml_text(name) + "\" classname=\"" +
                    xml_text(suite) + "\" time=\"0.000\">\n";
  };
  const auto properties = [&](const std::vector<std::pair<std::string, std::string>>& pairs) {
    counts.cases += "      <properties>\n";
    for (const auto& [name, value] : pairs) counts.cases += property(name, value);
    counts.cases += "      </properties>\n";
  };
  for (const ExercisedPart& part : exercised.parts) {
    open_case(part.area + "@" + part.backend);
    properties({{"ran", std::to_string(part.ran)},
                {"ranNotCounted", std::to_string(part.ran_not_counted)},
                {"skipped", std::to_string(part.skipped)},
                {"mustOwed", std::to_string(part.must_owed)},
                {"mustRan", std::to_string(part.must_ran)}});
    if (part.ran + part.ran_not_counted == 0) {
      ++counts.skipped;
      counts.cases += "      <skipped type=\"skipped\" message=\"every test was skipped\"/>\n";
    }
    counts.cases += "    </testcase>\n";
  }
  for (const ClaimCheck& check : exercised.claims) {
    open_case("claim " + check.claim.area + "@" + check.claim.backend);
    properties({{"ran", std::to_string(check.ran)},
                {"exercised", check.exercised ? "true" : "false"}});
    counts.cases += "    </testcase>\n";
  }
  int reason_number = 0;
  for (const std::string& reason : exercised.not_exercised) {
    open_case("not exercised " + std::to_string(++reason_number));
    ++counts.failures;
    counts.cases += "      <failure type=\"not-exercised\" message=\"" + xml_text(reason) +
                    "\"/>\n    </testcase>\n";
  }
}

}  // namespace

std::string junit_xml(const RunSummary& run) {
  std::vector<std::string> order;  // suites in the order their first test ended
  std::map<std::string, SuiteCounts> suites;
  for (const TestRecord& test : run.tests) {
    const std::string suite = test.name.substr(0, test.name.find('.'));
    if (!suites.count(suite)) order.push_back(suite);
    add_case(test, run.candidate, suites[suite]);
  }
  if (!run.outside_tests.empty()) {
    const std::string suite = "(outside every test)";
    order.push_back(suite);
    SuiteCounts& counts = suites[suite];
    for (const NotedTest& outside : run.outside_tests) {
      ++counts.tests;
      ++counts.failures;
      counts.cases += "    <testcase name=\"" + xml_text(outside.name) + "\" classname=\"" +
                      xml_text(suite) +
                      "\" time=\"0.000\">\n      <failure type=\"outside\" message=\"" +
                      xml_text(first_line(outside.reason)) + "\">" + xml_text(outside.reason) +
                      "</failure>\n    </testcase>\n";
    }
  }
  add_exercised_suite(run, order, suites);
  // What judged the run, on every suite: a CI's test view shows a suite's
  // properties, and there is no place for them on <testsuites>.
  const std::string identity =
      "    <properties>\n" + property("suiteVersion", run.suite.version) +
      property("protocolVersions", std::to_string(run.suite.oldest_protocol) + "-" +
                                       std::to_string(run.suite.newest_protocol)) +
      property("ssp2Revision", run.suite.ssp2_revision) +
      property("catalogDigest", run.suite.catalog_digest) + "    </properties>\n";
  SuiteCounts total;
  std::string body;
  for (const std::string& name : order) {
    const SuiteCounts& suite = suites[name];
    total.tests += suite.tests;
    total.failures += suite.failures;
    total.errors += suite.errors;
    total.skipped += suite.skipped;
    total.seconds += suite.seconds;
    body += "  <testsuite name=\"" + xml_text(name) + "\" tests=\"" + std::to_string(suite.tests) +
            "\" failures=\"" + std::to_string(suite.failures) + "\" errors=\"" +
            std::to_string(suite.errors) + "\" skipped=\"" + std::to_string(suite.skipped) +
            "\" time=\"" + seconds_text(suite.seconds) + "\">\n" + identity + suite.cases +
            "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" +
         xml_text(run.executable) + "\" tests=\"" + std::to_string(total.tests) + "\" failures=\"" +
         std::to_string(total.failures) + "\" errors=\"" + std::to_string(total.errors) +
         "\" skipped=\"" + std::to_string(total.skipped) + "\" time=\"" +
         seconds_text(total.seconds) + "\">\n" + body + "</testsuites>\n";
}

}  // namespace ssp::harness
