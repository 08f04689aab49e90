#include "harness/races/schedule.hpp"

#include <algorithm>
#include <set>

#include "harness/races/answer_pattern.hpp"
#include "harness/data/data_directory.hpp"
#include "harness/util/file_text.hpp"
#include "harness/util/keyword_lines.hpp"

namespace ssp::harness {
namespace {

std::optional<Backend> backend_named(std::string_view name) {
  for (const Backend backend : {Backend::sqlite, Backend::postgres}) {
    if (backend_name(backend) == name) return backend;
  }
  return std::nullopt;
}

// Reads one file line by line, keeping the line number for errors.
class ScheduleParser {
 public:
  explicit ScheduleParser(std::string file) { schedule_.file = std::move(file); }

  // One line, its comment already cut off (for_each_line).
  void line(int number, std::string_view text) {
    number_ = number;
    const auto words = split_words(text);
    if (words.empty()) return;
    const std::string& keyword = words[0];
    if (keyword == "schedule") {
      expect_words(words, 2, "schedule NAME");
      schedule_.name = words[1];
    } else if (keyword == "section") {
      expect_words(words, 2, "section §N …");
      schedule_.sections.assign(words.begin() + 1, words.end());
    } else if (keyword == "title") {
      schedule_.title = join_words(words, 1);
    } else if (keyword == "anomaly") {
      schedule_.anomaly += (schedule_.anomaly.empty() ? "" : " ") + join_words(words, 1);
    } else if (keyword == "setup") {
      expect_words(words, 3, "setup row ID …, setup member ID … or setup isolation LEVEL");
      if (words[1] != "row" && words[1] != "member" && words[1] != "isolation") {
        fail("unknown setup \"" + words[1] + "\" (row, member or isolation)");
      }
      schedule_.setup.emplace_back(words.begin() + 1, words.end());
    } else if (keyword == "session") {
      session(words);
    } else if (keyword == "step") {
      step(words);
    } else if (keyword == "permutation") {
      permutation(text);
    } else if (keyword == "expect") {
      expect(words);
    } else {
      fail("unknown keyword \"" + keyword + "\"");
    }
  }

  Schedule finish() {
    number_ = 0;
    if (schedule_.name.empty()) fail("no schedule line names the race");
    if (schedule_.sections.empty()) fail("no section line");
    if (schedule_.permutations.empty()) fail("no permutation");
    for (const auto& permutation : schedule_.permutations) {
      if (permutation.expectations.empty()) {
        fail("permutation " + permutation.requirement + " " + permutation.label +
             " expects nothing");
      }
    }
    return std::move(schedule_);
  }

 private:
  [[noreturn]] void fail(const std::string& problem) const {
    throw ScheduleSyntaxError(schedule_.file + ":" + std::to_string(number_) + ": " + problem);
  }

  void expect_words(const std::vector<std::string>& words, std::size_t at_least,
                    const std::string& form) const {
    if (words.size() < at_least) fail("expected \"" + form + "\"");
  }

  void session(const std::vector<std::string>& words) {
    expect_words(words, 2, "session NAME description");
    for (const auto& existing : schedule_.sessions) {
      if (existing.name == words[1]) fail("session " + words[1] + " is declared twice");
    }
    schedule_.sessions.push_back(ScheduleSession{words[1], join_words(words, 2), {}});
  }

  void step(const std::vector<std::string>& words) {
    expect_words(words, 3, "step NAME WHAT …");
    // The verbs a session plays (played_session.hpp).
    static const std::set<std::string> kVerbs = {
        "begin",    "lock", "read",    "write",  "append", "put-result", "recheck", "commit",
        "rollback", "push", "command", "ensure", "put",    "get",        "resume"};
    if (kVerbs.count(words[2]) == 0) fail("step " + words[1] + ": unknown verb \"" + words[2] + "\"");
    if (schedule_.sessions.empty()) fail("step " + words[1] + " comes before any session");
    if (schedule_.steps.count(words[1]) != 0) fail("step " + words[1] + " is declared twice");
    ScheduleSession& owner = schedule_.sessions.back();
    // A session opens a segment store or a server storage, never both.
    const auto of_segments = [](const std::string& verb) { return verb == "put" || verb == "get"; };
    for (const auto& earlier : owner.steps) {
      const std::string& verb = schedule_.steps.at(earlier).words[0];
      if (verb != "resume" && words[2] != "resume" && of_segments(verb) != of_segments(words[2])) {
        fail("session " + owner.name + " mixes segment steps (put, get) with storage steps");
      }
    }
    owner.steps.push_back(words[1]);
    schedule_.steps.emplace(words[1],
                            ScheduleStep{words[1], owner.name, {words.begin() + 2, words.end()}});
  }

  // permutation REQUIREMENT LABEL on BACKEND…: STEP STEP(OTHER) …
  void permutation(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) fail("a permutation line needs ':' before its steps");
    const auto head = split_words(text.substr(0, colon));
    if (head.size() < 5 || head[3] != "on") {
      fail("expected \"permutation REQUIREMENT LABEL on BACKEND…: STEPS\"");
    }
    Permutation permutation;
    permutation.requirement = head[1];
    permutation.label = head[2];
    permutation.written = std::string(text.substr(text.find_first_not_of(" \t")));
    while (!permutation.written.empty() && permutation.written.back() == ' ') {
      permutation.written.pop_back();
    }
    for (std::size_t i = 4; i < head.size(); ++i) {
      const auto backend = backend_named(head[i]);
      if (!backend) fail("unknown backend \"" + head[i] + "\" (sqlite or postgres)");
      permutation.backends.push_back(*backend);
    }
    for (const auto& other : schedule_.permutations) {
      if (other.requirement != permutation.requirement || other.label != permutation.label) {
        continue;
      }
      for (const Backend backend : other.backends) {
        if (std::count(permutation.backends.begin(), permutation.backends.end(), backend) != 0) {
          fail("permutation " + permutation.requirement + " " + permutation.label +
               " is declared twice on " + std::string(backend_name(backend)));
        }
      }
    }
    for (const auto& word : split_words(text.substr(colon + 1))) {
      permutation.steps.push_back(permutation_step(word));
    }
    if (permutation.steps.empty()) fail("a permutation without steps");
    schedule_.permutations.push_back(std::move(permutation));
  }

  PermutationStep permutation_step(const std::string& word) const {
    PermutationStep step;
    const auto open = word.find('(');
    step.step = word.substr(0, open);
    if (open != std::string::npos) {
      if (word.back() != ')') fail("\"" + word + "\": expected STEP(OTHER)");
      step.waits_for = word.substr(open + 1, word.size() - open - 2);
      require_step(*step.waits_for);
    }
    require_step(step.step);
    return step;
  }

  void require_step(const std::string& name) const {
    if (schedule_.steps.count(name) == 0) fail("no step is called \"" + name + "\"");
  }

  void expect(const std::vector<std::string>& words) {
    if (schedule_.permutations.empty()) fail("expect comes before any permutation");
    expect_words(words, 3, "expect SUBJECT ANSWER");
    // A subject is a step name, or a kind of observation with its argument.
    static const std::set<std::string> kTwoWordSubjects = {"row", "changes", "commits", "segment"};
    const std::size_t subject_words = kTwoWordSubjects.count(words[1]) != 0 ? 2 : 1;
    static const std::set<std::string> kOneWordSubjects = {"seqs", "failed-sessions",
                                                           "row-validations", "commit-validations"};
    if (subject_words == 1 && schedule_.steps.count(words[1]) == 0 &&
        kOneWordSubjects.count(words[1]) == 0) {
      fail("\"" + words[1] + "\" is neither a step nor an observation");
    }
    expect_words(words, 2 + subject_words, "expect SUBJECT ANSWER");
    for (std::size_t i = 1 + subject_words; i < words.size(); ++i) {
      if (words[i].front() == '?' && !is_seq_placeholder(words[i])) {
        fail("\"" + words[i] + "\": a placeholder is ? and a name of letters, digits or _");
      }
    }
    schedule_.permutations.back().expectations.push_back(
        Expectation{join_words({words.begin() + 1, words.begin() + 1 + static_cast<long>(subject_words)}),
                    join_words(words, 1 + subject_words)});
  }

  Schedule schedule_;
  int number_ = 0;
};

}  // namespace

std::string ScheduleStep::text() const { return join_words(words); }

std::optional<std::string> word_after(const std::vector<std::string>& words, std::string_view key) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == key) return words[i + 1];
  }
  return std::nullopt;
}

const ScheduleStep& Schedule::step(const std::string& name) const { return steps.at(name); }

Schedule parse_schedule(std::string_view text, const std::string& file) {
  ScheduleParser parser(file);
  for_each_line(text, [&](int number, std::string_view line) { parser.line(number, line); });
  Schedule schedule = parser.finish();
  schedule.text = std::string(text);
  return schedule;
}

std::vector<Schedule> load_schedules(const std::string& directory) {
  const auto files = files_with_extension(directory, ".schedule");
  if (files.empty()) throw ScheduleSyntaxError(directory + ": no *.schedule files");
  std::vector<Schedule> schedules;
  for (const auto& path : files) {
    schedules.push_back(parse_schedule(read_text_file(path), path.filename().string()));
  }
  return schedules;
}

std::string schedules_directory() { return data_path("schedules").string(); }

}  // namespace ssp::harness
