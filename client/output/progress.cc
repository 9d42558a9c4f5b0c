#include "client/output/progress.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"

namespace nqueens::client {
namespace {

constexpr int kBarWidth = 24;
constexpr absl::string_view kSpinner = "|/-\\";

std::string RenderBar(uint64_t done, uint64_t total) {
  const uint64_t clamped = std::min(done, total);
  const int filled = static_cast<int>(clamped * kBarWidth / total);
  const int percent = static_cast<int>(clamped * 100 / total);
  return absl::StrFormat("[%s%s] %3d%%", std::string(filled, '#'),
                         std::string(kBarWidth - filled, '-'), percent);
}

}  // namespace

std::string FormatCount(uint64_t count) {
  if (count < 10'000) return absl::StrCat(count);
  // One decimal of the smallest unit that keeps it below "1000.0".
  double value = static_cast<double>(count);
  for (const char unit : {'k', 'M'}) {
    value /= 1000;
    if (value < 999.95) return absl::StrFormat("%.1f%c", value, unit);
  }
  return absl::StrFormat("%.1fG", value / 1000);
}

std::string RenderProgressLine(const ProgressLine& line) {
  std::string text = line.label;
  if (line.total > 0) {
    absl::StrAppend(&text, " ", RenderBar(line.done, line.total), " ", FormatCount(line.done), "/",
                    FormatCount(line.total));
  } else {
    absl::StrAppend(&text, " ",
                    line.finished ? std::string("done")
                                  : std::string(1, kSpinner[line.frame % kSpinner.size()]));
    if (line.done > 0) absl::StrAppend(&text, " ", FormatCount(line.done));
  }
  if (!line.unit.empty() && (line.total > 0 || line.done > 0)) {
    absl::StrAppend(&text, " ", line.unit);
  }
  absl::StrAppendFormat(&text, " %.1fs", absl::ToDoubleSeconds(line.elapsed));
  return text;
}

ProgressBar::ProgressBar(Sink sink, Clock clock)
    : sink_(std::move(sink)), clock_(std::move(clock)) {}

ProgressBar::~ProgressBar() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  stop_ticking_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  Finish();
}

void ProgressBar::Start(absl::string_view label, uint64_t total, absl::string_view unit) {
  Finish();
  std::lock_guard<std::mutex> lock(mutex_);
  active_ = true;
  drawn_ = false;
  label_ = std::string(label);
  total_ = total;
  unit_ = std::string(unit);
  start_ = clock_();
  frame_ = 0;
  done_.store(0, std::memory_order_relaxed);
}

void ProgressBar::Advance(uint64_t count) { done_.fetch_add(count, std::memory_order_relaxed); }

void ProgressBar::Finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_) return;
  active_ = false;
  if (!drawn_) return;
  DrawLocked(/*finished=*/true);
  sink_("\n");
  last_width_ = 0;
}

void ProgressBar::Tick() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!active_ || clock_() - start_ < kShowAfter) return;
  DrawLocked(/*finished=*/false);
  drawn_ = true;
  ++frame_;
}

void ProgressBar::TickEvery(absl::Duration interval) {
  ticker_ = std::thread([this, interval] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_ticking_.wait_for(lock, absl::ToChronoNanoseconds(interval),
                                   [this] { return stopping_; })) {
      lock.unlock();
      Tick();
      lock.lock();
    }
  });
}

void ProgressBar::DrawLocked(bool finished) {
  ProgressLine line;
  line.label = label_;
  line.done = done_.load(std::memory_order_relaxed);
  line.total = total_;
  line.unit = unit_;
  line.elapsed = clock_() - start_;
  line.frame = frame_;
  line.finished = finished;
  std::string text = RenderProgressLine(line);
  const size_t width = text.size();
  // Blanks what is left of a longer previous line.
  if (width < last_width_) text.append(last_width_ - width, ' ');
  last_width_ = width;
  sink_(absl::StrCat("\r", text));
}

namespace {

// Ctrl-C ends the process where it is; the line the bar may be drawing ends
// first, so that the shell's prompt starts on a line of its own. Then
// SIGINT's default action, which the shell reports as status 130.
void EndLineOnInterrupt(int signal_number) {
  const char newline = '\n';
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, &newline, 1);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

}  // namespace

std::unique_ptr<ProgressBar> MakeStderrProgressBar(bool quiet) {
  if (quiet || isatty(STDERR_FILENO) == 0) return nullptr;
  std::signal(SIGINT, EndLineOnInterrupt);
  auto bar = std::make_unique<ProgressBar>(
      [](absl::string_view text) {
        std::fwrite(text.data(), 1, text.size(), stderr);
        std::fflush(stderr);
      },
      [] { return absl::Now(); });
  bar->TickEvery(absl::Milliseconds(100));
  return bar;
}

ProgressPhase::ProgressPhase(ProgressBar* bar, absl::string_view label, uint64_t total,
                             absl::string_view unit)
    : bar_(bar), total_(total) {
  if (bar_ != nullptr) bar_->Start(label, total, unit);
}

ProgressPhase::~ProgressPhase() {
  if (bar_ != nullptr) bar_->Finish();
}

}  // namespace nqueens::client
