// A one-line progress display on stderr for the long phases of a command:
// reading the input file, uploading the board, the solve on the server (or in
// process), downloading the result and writing the output file.
//
// A phase is drawn only once it has lasted kShowAfter, so quick commands print
// nothing, and only when stderr is a terminal and --quiet is off (see
// MakeStderrProgressBar). Each drawn phase is redrawn in place with '\r' and
// ends its line when it finishes, e.g.
//
//   uploading [################--------]  66% 66.0M/100.0M rows 1.3s
//   solving / 4.2s
//
// The bar is redrawn from a thread of its own (TickEvery), because a phase
// such as the solve on the server has no progress signal to redraw on; the
// phase's work only bumps an atomic counter (Advance).
#ifndef NQUEENS_CLIENT_OUTPUT_PROGRESS_H_
#define NQUEENS_CLIENT_OUTPUT_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace nqueens::client {

// What one line of the display shows.
struct ProgressLine {
  std::string label;   // "uploading"
  uint64_t done = 0;   // units done so far
  uint64_t total = 0;  // units to do; 0 when unknown (a spinner is shown)
  std::string unit;    // "rows", "bytes"; may be empty
  absl::Duration elapsed;
  uint64_t frame = 0;  // which spinner glyph to show
  bool finished = false;
};

// The line without '\r' or padding, e.g.
// "uploading [######------------------]  25% 25.0M/100.0M rows 0.8s".
std::string RenderProgressLine(const ProgressLine& line);

// Counts shortened to at most four significant digits: 1234, 12.3k, 4.6M.
std::string FormatCount(uint64_t count);

class ProgressBar {
 public:
  using Sink = std::function<void(absl::string_view)>;
  using Clock = std::function<absl::Time()>;

  // A phase is drawn once it has lasted this long.
  static constexpr absl::Duration kShowAfter = absl::Milliseconds(250);

  // Draws through `sink`, with the time from `clock`. Nothing is redrawn
  // until Tick() is called, or TickEvery() starts doing so.
  ProgressBar(Sink sink, Clock clock);
  // Stops the ticking thread and finishes the current phase.
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Starts a phase of `total` units (0: unknown), finishing the previous one.
  void Start(absl::string_view label, uint64_t total, absl::string_view unit);
  // Counts `count` more units done in the current phase. Cheap; any thread.
  void Advance(uint64_t count);
  // Ends the current phase; if it was drawn, draws it finished, then '\n'.
  void Finish();

  // Redraws the current phase if it has lasted kShowAfter.
  void Tick();
  // Calls Tick() every `interval` from a thread of its own until destroyed.
  void TickEvery(absl::Duration interval);

 private:
  void DrawLocked(bool finished);

  const Sink sink_;
  const Clock clock_;
  std::atomic<uint64_t> done_{0};

  std::mutex mutex_;
  bool active_ = false;  // a phase runs
  bool drawn_ = false;   // ... and is on the screen
  std::string label_;
  uint64_t total_ = 0;
  std::string unit_;
  absl::Time start_;
  uint64_t frame_ = 0;
  size_t last_width_ = 0;  // of the line on the screen, to blank its rest

  std::condition_variable stop_ticking_;
  bool stopping_ = false;
  std::thread ticker_;
};

// A bar on stderr redrawn ~10 times a second, or null when stderr is not a
// terminal or `quiet` is set: then nothing is ever drawn.
std::unique_ptr<ProgressBar> MakeStderrProgressBar(bool quiet);

// One phase on `bar` for the lifetime of this object, so that it ends on
// every path out of a scope. `bar` may be null: then every call does nothing.
class ProgressPhase {
 public:
  ProgressPhase(ProgressBar* bar, absl::string_view label, uint64_t total,
                absl::string_view unit = "");
  ~ProgressPhase();
  ProgressPhase(const ProgressPhase&) = delete;
  ProgressPhase& operator=(const ProgressPhase&) = delete;

  void Advance(uint64_t count) {
    if (bar_ != nullptr) bar_->Advance(count);
    done_ += count;
  }
  // Advances to `done` units in all, if that is more than so far (for work
  // that reports its share done, such as counting).
  void AdvanceTo(uint64_t done) {
    if (done > done_) Advance(done - done_);
  }
  // The work ended well: the bar ends full even if the last report of its
  // share came before the end.
  void Complete() { AdvanceTo(total_); }

 private:
  ProgressBar* bar_;
  uint64_t total_;
  uint64_t done_ = 0;
};

}  // namespace nqueens::client

#endif  // NQUEENS_CLIENT_OUTPUT_PROGRESS_H_
