// Linked into the `concurrency` tests of a ThreadSanitizer build only
// (tests/CMakeLists.txt): tells TSan what absl::Mutex and absl::CondVar do.
//
// Why: TSan sees synchronization only in instrumented code and in the libc
// calls it intercepts. Debian's libabsl_synchronization is not instrumented
// and locks with atomics and futex system calls, so TSan saw no
// happens-before between two threads taking the same absl::Mutex and
// reported every access guarded by one as a data race (MemoryBudget::Reserve
// against MemoryBudget::Release). An Abseil built with -fsanitize=thread
// makes the calls below itself (absl/synchronization/mutex.cc,
// ABSL_TSAN_MUTEX_*); a `called_from_lib:libabsl_*` suppression does not
// help, as the reported accesses are in our own code.
//
// How: this file defines the Mutex and CondVar members our code calls, so
// the executable's definitions take precedence over the shared library's
// (symbol interposition). Each wraps the library's own function, found with
// dlsym(RTLD_NEXT), in TSan's mutex annotations (sanitizer/tsan_interface.h):
// a lock becomes an acquire after the real lock, an unlock a release before
// the real unlock, and a wait (Await, LockWhen, CondVar::Wait) an unlock
// then a lock. Accesses between a pre_ and a post_ annotation, such as
// conditions Abseil evaluates inside Unlock or Await, are not checked.
// Waits are annotated as a writer's: a reader that waits would be reported
// as a misuse of the mutex. A member not wrapped here works as before, unseen
// by TSan: add it when code starts to use it (a race report on a variable
// guarded by a Mutex is the symptom).
#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/base/options.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace {

#define NQUEENS_STRINGIFY_(x) #x
#define NQUEENS_STRINGIFY(x) NQUEENS_STRINGIFY_(x)

// The library's definition of absl::<name>, by its mangled name: `mangled`
// is what follows "_ZN4absl<inline namespace>", whose own prefix (S0_)
// stands for absl::<inline namespace>.
template <typename Function>
Function Real(const char* mangled) {
  const std::string inline_namespace = NQUEENS_STRINGIFY(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  const std::string symbol =
      "_ZN4absl" + std::to_string(inline_namespace.size()) + inline_namespace + mangled;
  void* const function = dlsym(RTLD_NEXT, symbol.c_str());
  if (function == nullptr) {
    std::fprintf(stderr, "tsan_absl_mutex: %s not found in Abseil\n", symbol.c_str());
    std::abort();
  }
  return reinterpret_cast<Function>(function);
}

// Member functions take `this` first (Itanium C++ ABI).
using MutexFn = void (*)(absl::Mutex*);
using MutexTryFn = bool (*)(absl::Mutex*);
using ConditionFn = void (*)(absl::Mutex*, const absl::Condition&);
using ConditionDeadlineFn = bool (*)(absl::Mutex*, const absl::Condition&, absl::Time);
using WaitFn = void (*)(absl::CondVar*, absl::Mutex*);
using WaitDeadlineFn = bool (*)(absl::CondVar*, absl::Mutex*, absl::Time);

// Lock-like calls: annotations around the real call.
template <typename Call>
auto Locking(absl::Mutex* mutex, unsigned flags, Call call) {
  __tsan_mutex_pre_lock(mutex, flags);
  auto result = call();
  __tsan_mutex_post_lock(mutex, flags, 0);
  return result;
}

// Calls that release `mutex` while they wait and hold it again when they
// return.
template <typename Call>
auto Waiting(absl::Mutex* mutex, unsigned flags, Call call) {
  __tsan_mutex_pre_unlock(mutex, flags);
  __tsan_mutex_post_unlock(mutex, flags);
  __tsan_mutex_pre_lock(mutex, flags);
  auto result = call();
  __tsan_mutex_post_lock(mutex, flags, 0);
  return result;
}

void Unlocking(absl::Mutex* mutex, unsigned flags, MutexFn real) {
  __tsan_mutex_pre_unlock(mutex, flags);
  real(mutex);
  __tsan_mutex_post_unlock(mutex, flags);
}

bool TryLocking(absl::Mutex* mutex, unsigned flags, MutexTryFn real) {
  __tsan_mutex_pre_lock(mutex, flags | __tsan_mutex_try_lock);
  const bool locked = real(mutex);
  __tsan_mutex_post_lock(
      mutex, flags | __tsan_mutex_try_lock | (locked ? 0 : __tsan_mutex_try_lock_failed), 0);
  return locked;
}

constexpr unsigned kWriter = 0;
constexpr unsigned kReader = __tsan_mutex_read_lock;

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

Mutex::~Mutex() {
  static const MutexFn real = Real<MutexFn>("5MutexD1Ev");
  __tsan_mutex_destroy(this, __tsan_mutex_not_static);
  real(this);
}

void Mutex::Lock() {
  static const MutexFn real = Real<MutexFn>("5Mutex4LockEv");
  Locking(this, kWriter, [this] { return (real(this), 0); });
}

void Mutex::Unlock() {
  static const MutexFn real = Real<MutexFn>("5Mutex6UnlockEv");
  Unlocking(this, kWriter, real);
}

bool Mutex::TryLock() {
  static const MutexTryFn real = Real<MutexTryFn>("5Mutex7TryLockEv");
  return TryLocking(this, kWriter, real);
}

void Mutex::ReaderLock() {
  static const MutexFn real = Real<MutexFn>("5Mutex10ReaderLockEv");
  Locking(this, kReader, [this] { return (real(this), 0); });
}

void Mutex::ReaderUnlock() {
  static const MutexFn real = Real<MutexFn>("5Mutex12ReaderUnlockEv");
  Unlocking(this, kReader, real);
}

bool Mutex::ReaderTryLock() {
  static const MutexTryFn real = Real<MutexTryFn>("5Mutex13ReaderTryLockEv");
  return TryLocking(this, kReader, real);
}

void Mutex::Await(const Condition& condition) {
  static const ConditionFn real = Real<ConditionFn>("5Mutex5AwaitERKNS0_9ConditionE");
  Waiting(this, kWriter, [&] { return (real(this, condition), 0); });
}

// Abseil's own AwaitWithTimeout and LockWhenWithTimeout call their
// WithDeadline forms, which would land in the wrappers below inside these
// and annotate the wait twice: these go straight to those wrappers instead,
// as CondVar::WaitWithTimeout does.
bool Mutex::AwaitWithTimeout(const Condition& condition, absl::Duration timeout) {
  return AwaitWithDeadline(condition, absl::Now() + timeout);
}

bool Mutex::AwaitWithDeadline(const Condition& condition, absl::Time deadline) {
  static const ConditionDeadlineFn real =
      Real<ConditionDeadlineFn>("5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return Waiting(this, kWriter, [&] { return real(this, condition, deadline); });
}

void Mutex::LockWhen(const Condition& condition) {
  static const ConditionFn real = Real<ConditionFn>("5Mutex8LockWhenERKNS0_9ConditionE");
  Locking(this, kWriter, [&] { return (real(this, condition), 0); });
}

bool Mutex::LockWhenWithTimeout(const Condition& condition, absl::Duration timeout) {
  return LockWhenWithDeadline(condition, absl::Now() + timeout);
}

bool Mutex::LockWhenWithDeadline(const Condition& condition, absl::Time deadline) {
  static const ConditionDeadlineFn real =
      Real<ConditionDeadlineFn>("5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  return Locking(this, kWriter, [&] { return real(this, condition, deadline); });
}

void CondVar::Wait(Mutex* mutex) {
  static const WaitFn real = Real<WaitFn>("7CondVar4WaitEPNS0_5MutexE");
  Waiting(mutex, kWriter, [&] { return (real(this, mutex), 0); });
}

// Abseil's own WaitWithTimeout calls WaitWithDeadline, which would land in
// the wrapper below inside this one and annotate the wait twice (gRPC's
// timer thread waits so): this one goes straight to that wrapper instead.
bool CondVar::WaitWithTimeout(Mutex* mutex, absl::Duration timeout) {
  return WaitWithDeadline(mutex, absl::Now() + timeout);
}

bool CondVar::WaitWithDeadline(Mutex* mutex, absl::Time deadline) {
  static const WaitDeadlineFn real =
      Real<WaitDeadlineFn>("7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  return Waiting(mutex, kWriter, [&] { return real(this, mutex, deadline); });
}

ABSL_NAMESPACE_END
}  // namespace absl
