// The table of tunables: every default in its range, text sets each field,
// out-of-range values are refused by name and range where they enter, and
// docs/params.md shows the table as it is.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nqueens/params.h"
#include "nqueens/solver.h"

namespace nqueens {
namespace {

using ::testing::HasSubstr;

TEST(ParamTableTest, EveryDefaultLiesInItsRangeAndReadsBack) {
  EXPECT_TRUE(CheckParams(PipelineParams{}).ok());
  for (const ParamInfo& param : ParamTable()) {
    PipelineParams params;
    EXPECT_TRUE(SetParam(params, param.name, param.default_value).ok()) << param.name;
    EXPECT_TRUE(SetParam(params, param.name, param.min).ok()) << param.name;
    EXPECT_TRUE(SetParam(params, param.name, param.max).ok()) << param.name;
    EXPECT_FALSE(param.description.empty()) << param.name;
    EXPECT_FALSE(param.source.empty()) << param.name;
  }
}

TEST(ParamTableTest, TextSetsTheField) {
  PipelineParams params;
  ASSERT_TRUE(SetParam(params, "sim_bound5", "200").ok());
  EXPECT_EQ(params.sim_bound5, 200u);
  ASSERT_TRUE(SetParam(params, "b2_large.c1", "146.486415").ok());
  EXPECT_EQ(params.b2_large.c1, 146.486415);
  ASSERT_TRUE(SetParam(params, "match_construction", "false").ok());
  EXPECT_FALSE(params.match_construction);
  ASSERT_TRUE(SetParam(params, "exact_node_budget", "18446744073709551615").ok());
  EXPECT_EQ(params.exact_node_budget, UINT64_MAX);
  ASSERT_TRUE(SetParam(params, "genetic_mutation_rate", "0.5").ok());
  EXPECT_EQ(params.genetic_mutation_rate, 0.5);
}

TEST(ParamTableTest, BadTextIsRefusedNamingTheParameterAndItsRange) {
  struct Case {
    const char* name;
    const char* value;
    const char* message;
  };
  for (const Case& c : {
           Case{"genetic_population", "1", "parameter genetic_population must be in 2..10000"},
           Case{"genetic_population", "2.5", "genetic_population must be in 2..10000, not 2.5"},
           Case{"exact_max_free_rows", "65537", "exact_max_free_rows must be in 0..65536"},
           Case{"tot_sim_bound", "-3", "tot_sim_bound must be in 0..18446744073709551615"},
           Case{"genetic_mutation_rate", "nan", "genetic_mutation_rate must be in 0..1"},
           Case{"match_construction", "maybe", "match_construction must be in false..true"},
           Case{"sim_bound5", "many", "sim_bound5 must be in 1..1000000000, not many"},
           Case{"no_such_thing", "1", "unknown parameter no_such_thing"},
       }) {
    PipelineParams params;
    const absl::Status status = SetParam(params, c.name, c.value);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name << "=" << c.value;
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message));
  }
}

TEST(ParamTableTest, SolveAndCompleteRefuseParamsOutOfRange) {
  SolveOptions options;
  options.params.genetic_mutation_rate = 2;
  absl::StatusOr<CompletionResult> solved = Solve(8, SolveMethod::kGenetic, options);
  EXPECT_EQ(solved.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(solved.status().message()),
              HasSubstr("genetic_mutation_rate must be in 0..1, not 2"));
  options.params = PipelineParams{};
  options.params.exact_max_seconds = std::nan("");
  absl::StatusOr<CompletionResult> completed =
      Complete(Columns(8, kEmptyRow), CompleteOptions(options));
  EXPECT_EQ(completed.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(completed.status().message()), HasSubstr("exact_max_seconds"));
}

// The table as docs/params.md shows it.
std::string Markdown() {
  std::string text =
      "# Tunables\n\n"
      "Every tunable of the solvers (`PipelineParams` in `core/include/nqueens/params.h`), from\n"
      "the table in `core/src/solve/params_table.cc` and each method's rows in its file under\n"
      "`core/src/methods/`. Set them with `nqueens --local --param NAME=VALUE`,\n"
      "or in `CallOptions::params`; `Solve` and `Complete` refuse values outside the range\n"
      "(`INVALID_ARGUMENT` naming the parameter and its range). A server takes only the limits\n"
      "(`Limits` in the proto): the other tunables change how much memory a call needs, which\n"
      "the server's admission counts on. A test checks that this page matches the table.\n\n"
      "| name | default | min | max | description | source |\n"
      "|---|---|---|---|---|---|\n";
  for (const ParamInfo& p : ParamTable()) {
    absl::StrAppend(&text, "| `", p.name, "` | ", p.default_value, " | ", p.min, " | ", p.max,
                    " | ", p.description, " | ", p.source, " |\n");
  }
  return text;
}

TEST(ParamTableTest, DocsShowTheTable) {
  std::ifstream file(NQUEENS_DOCS_DIR "/params.md");
  std::stringstream docs;
  docs << file.rdbuf();
  const std::string expected = Markdown();
  if (docs.str() != expected) {
    std::ofstream("params.md") << expected;
    ADD_FAILURE() << "docs/params.md is out of date: copy params.md from this test's working "
                     "directory there";
  }
}

}  // namespace
}  // namespace nqueens
