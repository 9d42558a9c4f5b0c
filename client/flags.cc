#include "client/flags.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/types/span.h"
#include "client/boards/board_io.h"
#include "client/parts/job_servers.h"
#include "client/parts/parts_backend.h"
#include "command_line/host_port.h"
#include "nqueens/parts.h"

ABSL_FLAG(std::string, server, "",
          "nqueens-server address (empty: localhost:50051), or a gRPC target naming several "
          "servers, which share the calls: dns:///HOST:PORT, ipv4:A:P,B:Q");
ABSL_FLAG(bool, local, false, "run in this process instead of on a server");
ABSL_FLAG(std::optional<uint64_t>, seed, std::nullopt,
          "random seed (unset: a random one, reported on stderr)");
ABSL_FLAG(std::string, method, "",
          "solve: {solve methods}; complete: {complete methods} (the only ones that may answer "
          "UNSOLVABLE are pipeline and exact); docs/methods.md compares them");
ABSL_FLAG(uint64_t, variant, 0,
          "solve --method formula: which member of the explicit families (0 .. their number - "
          "1)");
ABSL_FLAG(uint32_t, symmetry, 0,
          "solve: map the result by symmetry S of the square, 0 (identity) .. 7");
ABSL_FLAG(uint64_t, limit, 0, "enumerate: print at most this many boards (0: all)");
ABSL_FLAG(std::string, certificate, "",
          "complete: write the proof of an UNSOLVABLE answer to this file (check it with "
          "nqueens-check-certificate BOARD FILE)");
ABSL_FLAG(std::string, certificate_format, "binary",
          "complete --certificate: binary (compact, compressed) or text (one record per line, "
          "for reading); docs/reference/certificates.md describes both");
ABSL_FLAG(absl::Duration, deadline, absl::InfiniteDuration(),
          "give up after this long, e.g. 5s or 500ms (inf: never)");
ABSL_FLAG(std::string, output, "", "write the board (or validate's report) to this file");
ABSL_FLAG(std::string, format, "auto",
          "input: auto (binary for file names ending in .bin or .u32, else by content), q, "
          "matrix, sparse or binary");
ABSL_FLAG(std::string, output_format, "auto",
          "output: auto (binary for --output names ending in .bin or .u32, else q), q, matrix, "
          "sparse or binary");
ABSL_FLAG(uint64_t, max_backtracks, 0, "backtracks before giving up (0: the solver's default)");
ABSL_FLAG(double, max_exact_seconds, 0,
          "seconds the exact search may run before the answer is UNDECIDED (0: 60, or until "
          "shortly before --deadline when one is given; a server may lower it)");
ABSL_FLAG(uint64_t, max_exact_nodes, 0, "exact-search nodes before giving up (0: no limit)");
ABSL_FLAG(std::vector<std::string>, param, {},
          "with --local: NAME=VALUE sets a tunable of the solvers, e.g. sim_bound5=200 (repeat "
          "it, or give a comma-separated list); docs/params.md lists each with its range");
ABSL_FLAG(bool, batch, false,
          "complete: FILE holds many compositions, one JSON CompleteRequest per line (\"-\" for "
          "stdin); one JSON answer per line comes out, in input order, on stdout or --output; "
          "when lines are refused (their answer is {\"error\": ...}), stderr says how many and "
          "the exit status is 1");
ABSL_FLAG(bool, json, false,
          "print the result as one JSON object (the proto's JSON mapping: outcome, n, stats with "
          "seed and method, columns; validate's report; count's numbers; enumerate: one object "
          "per board; health: the status), and errors as {\"error\": {\"code\", \"message\"}}, on "
          "stdout or "
          "--output");
ABSL_FLAG(std::string, picture, "",
          "solve, complete, validate: also draw the board as an SVG image in this file (given "
          "queens dark, placed ones blue, conflicting ones red and joined by lines; boards of at "
          "most 10000 rows)");
ABSL_FLAG(std::optional<uint64_t>, parts, std::nullopt,
          "count, enumerate, and complete with the exact method: cut the job into this many "
          "parts (1 .. 65536) and spread them over every server behind --server (each address "
          "a dns: name or HOST:PORT resolves to, each of an ipv4: or ipv6: list), or with "
          "--local over every core; the output is a single call's. Parts whose server fails go "
          "to another");
ABSL_FLAG(std::optional<uint64_t>, part_index, std::nullopt,
          "with --parts K: run part I (0 .. K-1) alone, in one call; --json then adds "
          "\"part_index\" and \"part_count\" (a Kubernetes Indexed Job runs one per pod)");
ABSL_FLAG(uint64_t, window, 0,
          "with --parts: parts in flight on each server (0: 2; with --local, one per CPU this "
          "process may use)");
ABSL_FLAG(std::string, job_file, "",
          "count and complete with --parts: record each finished part in this file (one JSON line "
          "each); a rerun with the same file, command, board and --parts skips the recorded "
          "parts, and a file of another job is refused");
// Two small DNS queries every 5 s cost nothing beside a job of parts, and a
// server that comes up waits at most that long for its first part.
ABSL_FLAG(absl::Duration, resolve_every, absl::Seconds(5),
          "with --parts over a dns: name or HOST:PORT: look the name up again this often while "
          "the job runs; servers of new addresses join the job, dropped ones still named are "
          "tried again, those no longer named get no new parts (0: never)");
ABSL_FLAG(bool, quiet, false, "print nothing on stderr but errors (no progress)");
ABSL_FLAG(bool, tls, false, "connect with TLS, trusting the system's CAs");
ABSL_FLAG(std::string, tls_ca, "",
          "trust the CAs in this PEM file instead of the system's (implies --tls)");
ABSL_FLAG(std::string, tls_cert, "", "client certificate (PEM) for mutual TLS, with --tls-key");
ABSL_FLAG(std::string, tls_key, "", "the private key (PEM) of --tls-cert");
ABSL_FLAG(std::string, tls_server_name, "",
          "the name the server's certificate must have (default: the host of --server)");
ABSL_FLAG(std::string, auth_token_file, "",
          "send the token on this file's first line as \"authorization: Bearer <token>\" "
          "(default: the NQUEENS_AUTH_TOKEN environment variable); without TLS it crosses the "
          "network in clear text");
ABSL_FLAG(bool, help, false, "print this help (also -h, and nqueens help)");
ABSL_FLAG(bool, version, false, "print the version and exit");

namespace nqueens::client {
namespace {

constexpr char kDefaultServer[] = "localhost:50051";

// A flag as the command line spells it: max_backtracks is --max-backtracks.
std::string Dashed(absl::string_view flag) {
  return absl::StrCat("--", absl::StrReplaceAll(flag, {{"_", "-"}}));
}

// The method of `methods` (nqueens/solver.h's tables) whose CLI name is
// `name`; INVALID_ARGUMENT listing the names otherwise.
template <typename Method>
absl::Status LookUpMethod(absl::Span<const MethodInfo<Method>> methods, const std::string& name,
                          const std::string& command, Method& method) {
  std::vector<std::string> names;
  for (const MethodInfo<Method>& info : methods) {
    if (name == info.cli_name) {
      method = info.method;
      return absl::OkStatus();
    }
    names.push_back(info.cli_name);
  }
  std::sort(names.begin(), names.end());
  return absl::InvalidArgumentError(absl::StrCat("unknown --method \"", name, "\" for ", command,
                                                 " (expected ", absl::StrJoin(names, ", "), ")"));
}

// --method for the command that takes one; an error for the others.
absl::Status MethodFromFlag(const std::string& command, CommandOptions& options) {
  const std::string name = absl::GetFlag(FLAGS_method);
  if (name.empty()) return absl::OkStatus();
  if (command == "solve") return LookUpMethod(SolveMethods(), name, command, options.method);
  if (command == "complete") {
    return LookUpMethod(CompleteMethods(), name, command, options.run.complete_method);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("--method applies to solve and complete, not to ", command));
}

// --param's NAME=VALUE pairs into `params`; INVALID_ARGUMENT naming the
// parameter and its range.
absl::Status ParamsFromFlag(PipelineParams& params) {
  const std::vector<std::string> settings = absl::GetFlag(FLAGS_param);
  if (!settings.empty() && !absl::GetFlag(FLAGS_local)) {
    return absl::InvalidArgumentError(
        "--param needs --local: a server takes only the limits (--max-backtracks, "
        "--max-exact-seconds, --max-exact-nodes)");
  }
  for (const std::string& setting : settings) {
    if (!absl::StrContains(setting, '=')) {
      return absl::InvalidArgumentError(
          absl::StrCat("--param ", setting, ": expected NAME=VALUE, e.g. ", setting,
                       "=200 (docs/params.md lists each parameter with its range)"));
    }
    const std::pair<std::string, std::string> name_value = absl::StrSplit(setting, '=');
    if (absl::Status set = SetParam(params, name_value.first, name_value.second); !set.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("--param: ", set.message()));
    }
  }
  return absl::OkStatus();
}

// Whether a file can be written at `path` (empty: none asked for), checked
// before any work so that a long computation is not lost to a typo; the file
// itself is not touched until the result is there.
absl::Status CheckWritable(const char* flag, const std::string& path) {
  if (path.empty()) return absl::OkStatus();
  struct stat status {};
  const bool exists = stat(path.c_str(), &status) == 0;
  if (exists && S_ISDIR(status.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open ", path, " (", flag, "): ", std::strerror(EISDIR)));
  }
  const size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "."
                                : slash == 0               ? "/"
                                                           : path.substr(0, slash);
  if (access(exists ? path.c_str() : directory.c_str(), W_OK) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot open ", path, " (", flag, "): ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// --certificate and --certificate-format into `options`; `given`: the flags
// on the command line.
absl::Status CertificateFromFlags(const std::set<std::string>& given, CommandOptions& options) {
  options.certificate_path = absl::GetFlag(FLAGS_certificate);
  options.run.want_certificate = !options.certificate_path.empty();
  const std::string format = absl::GetFlag(FLAGS_certificate_format);
  if (format == "binary") {
    options.run.certificate_format = CertificateFormat::kBinary;
  } else if (format == "text") {
    options.run.certificate_format = CertificateFormat::kText;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--certificate-format must be binary or text, not \"", format, "\""));
  }
  if (given.count("certificate_format") != 0 && options.certificate_path.empty()) {
    return absl::InvalidArgumentError("--certificate-format needs --certificate FILE");
  }
  return absl::OkStatus();
}

// --parts and --part-index into `options`, and whether --window,
// --job-file and --resolve-every (which MakeBackend reads) go with them.
// `given`: the flags on the command line (from the environment, those three
// apply to jobs of parts only).
absl::Status PartsFromFlags(const std::string& command, const std::set<std::string>& given,
                            CommandOptions& options) {
  const std::optional<uint64_t> parts = absl::GetFlag(FLAGS_parts);
  const std::optional<uint64_t> index = absl::GetFlag(FLAGS_part_index);
  if (!parts.has_value()) {
    for (const char* flag : {"part_index", "window", "job_file", "resolve_every"}) {
      if (given.count(flag) != 0) {
        return absl::InvalidArgumentError(absl::StrCat(Dashed(flag), " needs --parts K"));
      }
    }
    return absl::OkStatus();
  }
  if (*parts < 1 || *parts > kMaxPartCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("--parts must be 1 .. ", kMaxPartCount, ", not ", *parts));
  }
  if (command == "complete" && options.batch) {
    return absl::InvalidArgumentError(
        "--parts cuts one search: it does not apply to complete --batch");
  }
  if (command == "complete" && options.run.complete_method != CompleteMethod::kExact) {
    return absl::InvalidArgumentError(
        "--parts cuts the exact search only: complete --parts needs --method exact");
  }
  if (absl::GetFlag(FLAGS_resolve_every) < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--resolve-every must be 0 (never) or more");
  }
  if (given.count("resolve_every") != 0 && absl::GetFlag(FLAGS_local)) {
    return absl::InvalidArgumentError(
        "--resolve-every looks the name of --server up again: it does not apply to --local");
  }
  if (!index.has_value()) {
    options.parts = *parts;
    return absl::OkStatus();
  }
  if (*index >= *parts) {
    return absl::InvalidArgumentError(
        absl::StrCat("--part-index must be below --parts (", *parts, "), not ", *index));
  }
  for (const char* flag : {"window", "job_file", "resolve_every"}) {
    if (given.count(flag) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          Dashed(flag), " belongs to a job spread over servers, not to --part-index's one part"));
    }
  }
  options.run.part = {*index, *parts};
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckFlagsApply(const CommandEntry& command, const std::set<std::string>& given) {
  const std::set<std::string> takes = FlagsOf(command);
  for (const std::string& flag : given) {
    if (flag == "help" || flag == "version" || takes.count(flag) != 0) continue;
    std::vector<std::string> takers;
    for (const CommandEntry& entry : Commands()) {
      if (FlagsOf(entry).count(flag) != 0) takers.push_back(entry.name);
    }
    if (takers.empty()) {  // a flag that kCommands does not list yet
      return absl::InvalidArgumentError(
          absl::StrCat(Dashed(flag), " does not apply to ", command.name));
    }
    const std::string last = takers.back();
    takers.pop_back();
    const std::string list =
        takers.empty() ? last : absl::StrCat(absl::StrJoin(takers, ", "), " and ", last);
    return absl::InvalidArgumentError(
        absl::StrCat(Dashed(flag), " applies to ", list, ", not to ", command.name));
  }
  if (given.count("variant") != 0 && absl::GetFlag(FLAGS_method) != "formula") {
    return absl::InvalidArgumentError(
        "--variant picks one of the explicit formulas: it needs --method formula");
  }
  if (absl::GetFlag(FLAGS_batch)) {
    for (const char* flag : {"picture", "certificate", "certificate_format", "output_format"}) {
      if (given.count(flag) == 0) continue;
      return absl::InvalidArgumentError(absl::StrCat(
          Dashed(flag), " does not apply to complete --batch, whose answers are JSON lines"));
    }
  }
  if (absl::string_view(command.name) == "enumerate" &&
      FormatFromPath(absl::GetFlag(FLAGS_output)) == BoardFormat::kBinary) {
    return absl::InvalidArgumentError(
        absl::StrCat("enumerate writes text, one Q array per line: --output ",
                     absl::GetFlag(FLAGS_output), " names a binary file"));
  }
  return absl::OkStatus();
}

absl::StatusOr<CommandOptions> OptionsFromFlags(const std::string& command,
                                                const std::set<std::string>& given) {
  CommandOptions options;
  options.run.seed = absl::GetFlag(FLAGS_seed);
  options.run.max_backtracks = absl::GetFlag(FLAGS_max_backtracks);
  options.run.max_exact_nodes = absl::GetFlag(FLAGS_max_exact_nodes);
  options.run.max_exact_seconds = absl::GetFlag(FLAGS_max_exact_seconds);
  if (!(options.run.max_exact_seconds >= 0)) {
    return absl::InvalidArgumentError("--max-exact-seconds must be 0 (default) or more");
  }
  if (absl::GetFlag(FLAGS_local) && !absl::GetFlag(FLAGS_server).empty()) {
    return absl::InvalidArgumentError("--local and --server exclude each other");
  }
  if (absl::Status params = ParamsFromFlag(options.run.params); !params.ok()) return params;
  options.run.deadline = absl::GetFlag(FLAGS_deadline);
  if (options.run.deadline <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("--deadline must be positive");
  }
  if (absl::Status method = MethodFromFlag(command, options); !method.ok()) return method;
  options.run.formula_variant = absl::GetFlag(FLAGS_variant);
  options.run.symmetry = absl::GetFlag(FLAGS_symmetry);
  if (options.run.symmetry >= kSymmetryCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("--symmetry must be 0..", kSymmetryCount - 1, ", not ", options.run.symmetry));
  }
  options.limit = absl::GetFlag(FLAGS_limit);
  if (absl::Status certificate = CertificateFromFlags(given, options); !certificate.ok()) {
    return certificate;
  }
  absl::StatusOr<BoardFormat> input = ParseBoardFormat(absl::GetFlag(FLAGS_format));
  absl::StatusOr<BoardFormat> output = ParseBoardFormat(absl::GetFlag(FLAGS_output_format));
  if (!input.ok()) return input.status();
  if (!output.ok()) {
    return absl::InvalidArgumentError("--output-format must be auto, q, matrix, sparse or binary");
  }
  options.input_format = *input;
  options.output_path = absl::GetFlag(FLAGS_output);
  options.output_format = *output;
  if (*output == BoardFormat::kAuto) {
    options.output_format = FormatFromPath(options.output_path);
    if (options.output_format == BoardFormat::kAuto) {
      options.output_format = BoardFormat::kQArray;
    }
  }
  options.json = absl::GetFlag(FLAGS_json);
  options.batch = absl::GetFlag(FLAGS_batch);
  if (options.batch && command != "complete") {
    return absl::InvalidArgumentError("--batch applies to complete only");
  }
  options.picture_path = absl::GetFlag(FLAGS_picture);
  if (!options.json && options.output_format == BoardFormat::kBinary &&
      options.output_path.empty() && isatty(STDOUT_FILENO) != 0) {
    return absl::InvalidArgumentError(
        "binary output would go to the terminal: give --output FILE or redirect stdout");
  }
  options.quiet = absl::GetFlag(FLAGS_quiet);
  for (const auto& [flag, path] : {std::pair{"--output", options.output_path},
                                   std::pair{"--certificate", options.certificate_path},
                                   std::pair{"--picture", options.picture_path}}) {
    if (absl::Status writable = CheckWritable(flag, path); !writable.ok()) return writable;
  }
  if (absl::Status parts = PartsFromFlags(command, given, options); !parts.ok()) return parts;
  return options;
}

absl::StatusOr<ClientSecurity> SecurityFromFlags() {
  SecurityFlags flags;
  flags.tls = absl::GetFlag(FLAGS_tls);
  flags.ca_file = absl::GetFlag(FLAGS_tls_ca);
  flags.cert_file = absl::GetFlag(FLAGS_tls_cert);
  flags.key_file = absl::GetFlag(FLAGS_tls_key);
  flags.server_name = absl::GetFlag(FLAGS_tls_server_name);
  flags.token_file = absl::GetFlag(FLAGS_auth_token_file);
  return LoadClientSecurity(flags, std::getenv("NQUEENS_AUTH_TOKEN"));
}

absl::Status CheckServerFlag() {
  const std::string server = absl::GetFlag(FLAGS_server);
  if (server.empty() || absl::StrContains(server, "://") || absl::StartsWith(server, "ipv4:") ||
      absl::StartsWith(server, "ipv6:") || absl::StartsWith(server, "unix:") ||
      absl::StartsWith(server, "dns:")) {
    return absl::OkStatus();
  }
  return command_line::CheckHostPort("--server", server);
}

std::string ServerFromFlags() {
  const std::string server = absl::GetFlag(FLAGS_server);
  return server.empty() ? kDefaultServer : server;
}

absl::StatusOr<std::unique_ptr<Backend>> MakeBackend(const ClientSecurity& security,
                                                     const CommandOptions& options) {
  const bool local = absl::GetFlag(FLAGS_local);
  const std::string server = ServerFromFlags();
  if (options.parts == 0) return local ? MakeLocalBackend() : MakeRemoteBackend(server, security);
  absl::StatusOr<std::vector<JobServer>> servers =
      local ? LocalJobServers() : RemoteJobServers(server, security);
  if (!servers.ok()) return servers.status();
  PartsBackendOptions job;
  job.part_count = options.parts;
  job.window = absl::GetFlag(FLAGS_window);
  if (job.window == 0) job.window = local ? LocalWindow() : kDefaultWindow;
  job.job_file = absl::GetFlag(FLAGS_job_file);
  job.certificate_path = options.certificate_path;
  if (!local) job.look_up = JobServerLookUp(server, security, absl::GetFlag(FLAGS_resolve_every));
  if (!options.quiet) {
    job.warn = [](absl::string_view line) {
      std::fputs(absl::StrCat("nqueens: ", line, "\n").c_str(), stderr);
    };
  }
  return MakePartsBackend(*std::move(servers), std::move(job));
}

void PreferTheCommandLine(const std::set<std::string>& given) {
  const bool local_given = given.count("local") != 0;
  const bool server_given = given.count("server") != 0;
  if (local_given && !server_given) absl::SetFlag(&FLAGS_server, "");
  if (server_given && !local_given) absl::SetFlag(&FLAGS_local, false);
}

}  // namespace nqueens::client
