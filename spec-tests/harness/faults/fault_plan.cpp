#include "harness/faults/fault_plan.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>

#include "harness/data/data_directory.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/keyword_lines.hpp"

namespace ssp::harness {
namespace {

constexpr FaultCheck kAllChecks[] = {FaultCheck::fails_cleanly, FaultCheck::untouched_before_commit,
                                     FaultCheck::whole_or_none, FaultCheck::applies_once,
                                     FaultCheck::replays};

// A point or pattern cut at its '#': "round-trip#3/after-answer" is
// {"round-trip", "3", "/after-answer"}; a name without '#' has no ordinal.
struct PointName {
  std::string name;
  std::string ordinal;  // digits, "*" or "last"
  std::string rest;
};

PointName split_point(std::string_view text) {
  const std::size_t hash = text.find('#');
  if (hash == std::string_view::npos) return {std::string(text), "", ""};
  std::size_t end = hash + 1;
  if (text.substr(end, 1) == "*") {
    end += 1;
  } else if (text.substr(end, 4) == "last") {
    end += 4;
  } else {
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  }
  return {std::string(text.substr(0, hash)), std::string(text.substr(hash + 1, end - hash - 1)),
          std::string(text.substr(end))};
}

// `pattern` with an ordinal `last` replaced by the highest that `reached`
// holds for its name and rest (left as it is when none).
std::string with_last_resolved(const std::string& pattern, const std::vector<std::string>& reached) {
  const PointName wanted = split_point(pattern);
  if (wanted.ordinal != "last") return pattern;
  long highest = 0;
  for (const std::string& point : reached) {
    const PointName found = split_point(point);
    if (found.name == wanted.name && found.rest == wanted.rest && !found.ordinal.empty() &&
        found.ordinal != "*" && found.ordinal != "last") {
      highest = std::max(highest, std::stol(found.ordinal));
    }
  }
  return highest == 0 ? pattern : wanted.name + "#" + std::to_string(highest) + wanted.rest;
}

class FaultPlanParser {
 public:
  explicit FaultPlanParser(std::string file) { plan_.file = std::move(file); }

  void line(int number, std::string_view text) {
    number_ = number;
    const auto words = split_words(text);
    if (words.empty()) return;
    const std::string& keyword = words[0];
    if (!seen_.insert(keyword).second) fail("a second \"" + keyword + "\" line");
    if (keyword == "plan") {
      plan_.name = one_word(words, "plan NAME");
    } else if (keyword == "requirement") {
      plan_.requirement = one_word(words, "requirement ID");
    } else if (keyword == "section") {
      plan_.sections = rest(words, "section §N …");
    } else if (keyword == "title") {
      plan_.title = join_words(rest(words, "title TEXT"));
    } else if (keyword == "test") {
      plan_.test = one_word(words, "test NAME");
      const bool identifier = std::all_of(plan_.test.begin(), plan_.test.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) != 0;
      });
      if (!identifier) fail("test name \"" + plan_.test + "\" is not letters and digits");
    } else if (keyword == "call") {
      call(words);
    } else if (keyword == "fault") {
      fault(one_word(words, "fault kill|lose-answer|cut"));
    } else if (keyword == "points") {
      plan_.points = rest(words, "points PATTERN …");
    } else if (keyword == "subset") {
      plan_.subset = rest(words, "subset PATTERN …");
    } else if (keyword == "check") {
      for (const std::string& word : rest(words, "check WORD …")) plan_.checks.push_back(check(word));
    } else {
      fail("unknown keyword \"" + keyword + "\"");
    }
  }

  FaultPlan finish() {
    number_ = 0;
    for (const char* required :
         {"plan", "requirement", "section", "title", "test", "call", "fault", "points", "check"}) {
      if (!seen_.contains(required)) fail(std::string("no \"") + required + "\" line");
    }
    for (const std::string& pattern : plan_.subset) {
      const bool within = std::any_of(plan_.points.begin(), plan_.points.end(),
                                      [&](const std::string& point) {
                                        return point == pattern || point_matches(point, pattern);
                                      });
      if (!within) fail("subset pattern \"" + pattern + "\" is not among the plan's points");
    }
    return std::move(plan_);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw FaultPlanSyntaxError(plan_.file + ":" + std::to_string(number_) + ": " + problem);
  }

  std::vector<std::string> rest(const std::vector<std::string>& words,
                                const std::string& form) const {
    if (words.size() < 2) fail("expected \"" + form + "\"");
    return {words.begin() + 1, words.end()};
  }

  std::string one_word(const std::vector<std::string>& words, const std::string& form) const {
    if (words.size() != 2) fail("expected \"" + form + "\"");
    return words[1];
  }

  void call(const std::vector<std::string>& words) {
    const bool push = words.size() == 3 && words[1] == "push.run" &&
                      (words[2] == "applied" || words[2] == "rejected");
    const bool command = words.size() == 3 && words[1] == "command.run" && words[2] == "applied";
    const bool put = words.size() == 3 && words[1] == "segments.put" && words[2] == "published";
    const bool startup =
        words.size() == 3 && words[1] == "storage.ensure" && words[2] == "migrated";
    if (!push && !command && !put && !startup) {
      fail("expected \"call push.run applied|rejected\", \"call command.run applied\", "
           "\"call segments.put published\" or \"call storage.ensure migrated\"");
    }
    plan_.call = words[1];
    plan_.clean_answer = words[2];
  }

  void fault(const std::string& word) {
    if (word == "kill") {
      plan_.fault = FaultKind::kill;
    } else if (word == "lose-answer") {
      plan_.fault = FaultKind::lose_answer;
    } else if (word == "cut") {
      plan_.fault = FaultKind::cut;
    } else {
      fail("unknown fault \"" + word + "\" (kill, lose-answer or cut)");
    }
  }

  FaultCheck check(const std::string& word) const {
    for (const FaultCheck known : kAllChecks) {
      if (fault_check_name(known) == word) return known;
    }
    fail("unknown check \"" + word + "\"");
  }

  FaultPlan plan_;
  std::set<std::string> seen_;
  int number_ = 0;
};

}  // namespace

std::string_view fault_check_name(FaultCheck check) {
  switch (check) {
    case FaultCheck::fails_cleanly: return "fails-cleanly";
    case FaultCheck::untouched_before_commit: return "untouched-before-commit";
    case FaultCheck::whole_or_none: return "whole-or-none";
    case FaultCheck::applies_once: return "applies-once";
    case FaultCheck::replays: return "replays";
  }
  return "unknown";
}

std::string fault_checks_text(const std::vector<FaultCheck>& checks) {
  std::vector<std::string> names;
  for (const FaultCheck check : checks) names.emplace_back(fault_check_name(check));
  return join_words(names);
}

bool claims(const FaultPlan& plan, FaultCheck check) {
  return std::find(plan.checks.begin(), plan.checks.end(), check) != plan.checks.end();
}

std::optional<std::string> unplayable_check(const FaultPlan& plan,
                                            const std::vector<FaultCheck>& playable) {
  for (const FaultCheck check : plan.checks) {
    if (std::find(playable.begin(), playable.end(), check) != playable.end()) continue;
    return plan.file + ": check " + std::string(fault_check_name(check)) +
           " cannot be played after its fault (this fault's engine plays " +
           fault_checks_text(playable) + ")";
  }
  return std::nullopt;
}

FaultPlan parse_fault_plan(std::string_view text, const std::string& file) {
  FaultPlanParser parser(file);
  for_each_line(text, [&](int number, std::string_view line) { parser.line(number, line); });
  FaultPlan plan = parser.finish();
  plan.text = std::string(text);
  return plan;
}

std::string fault_plan_test_name(const FaultPlan& plan) {
  std::string name = plan.requirement;
  std::replace(name.begin(), name.end(), '-', '_');
  return name + "_" + plan.test;
}

std::vector<FaultPlan> load_fault_plans(const std::string& directory) {
  const auto files = files_with_extension(directory, ".plan");
  if (files.empty()) throw FaultPlanSyntaxError(directory + ": no *.plan files");
  std::vector<FaultPlan> plans;
  std::set<std::string> names;
  for (const auto& path : files) {
    plans.push_back(parse_fault_plan(read_text_file(path), path.filename().string()));
    if (!names.insert(plans.back().name).second) {
      throw FaultPlanSyntaxError(plans.back().file + ": a second plan " + plans.back().name);
    }
  }
  return plans;
}

FaultPlan load_fault_plan(const std::string& directory, const std::string& name) {
  for (FaultPlan& plan : load_fault_plans(directory)) {
    if (plan.name == name) return std::move(plan);
  }
  throw FaultPlanSyntaxError(directory + ": no *.plan file is plan " + name);
}

std::string fault_plans_directory() { return data_path("fault-plans").string(); }

FaultSweep fault_sweep_of_environment() {
  const char* value = std::getenv("SSP_FAULT_SWEEP");
  const std::string sweep = value == nullptr ? "" : value;
  if (sweep.empty() || sweep == "full") return FaultSweep::full;
  if (sweep == "subset") return FaultSweep::subset;
  throw std::invalid_argument("SSP_FAULT_SWEEP=" + sweep + ": expected full or subset");
}

bool point_matches(std::string_view pattern, std::string_view point) {
  if (pattern.ends_with(":*")) return point.starts_with(pattern.substr(0, pattern.size() - 1));
  const PointName wanted = split_point(pattern);
  const PointName candidate = split_point(point);
  return wanted.name == candidate.name && wanted.rest == candidate.rest &&
         (wanted.ordinal == "*" || wanted.ordinal == candidate.ordinal);
}

FaultPoints choose_fault_points(const FaultPlan& plan, const std::vector<std::string>& reached,
                                FaultSweep sweep) {
  const std::vector<std::string>& written =
      sweep == FaultSweep::subset && !plan.subset.empty() ? plan.subset : plan.points;
  FaultPoints points;
  std::vector<std::string> patterns;
  for (const std::string& pattern : written) {
    const std::string resolved = with_last_resolved(pattern, reached);
    if (std::none_of(reached.begin(), reached.end(),
                     [&](const std::string& point) { return point_matches(resolved, point); })) {
      points.unmatched_patterns.push_back(pattern);
    }
    patterns.push_back(resolved);
  }
  for (const std::string& point : reached) {
    if (std::any_of(patterns.begin(), patterns.end(),
                    [&](const std::string& pattern) { return point_matches(pattern, point); })) {
      points.chosen.push_back(point);
    }
  }
  return points;
}

}  // namespace ssp::harness
