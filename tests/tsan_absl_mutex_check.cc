// Checks tsan_absl_mutex.cc in a ThreadSanitizer build (tests/CMakeLists.txt
// runs it twice): with `locked`, two threads that take an absl::Mutex around
// every access, and a wait in Await, must give no report; with `unlocked`,
// where one thread skips the mutex, TSan must still report the race. The
// second run is what shows that the annotations do not hide real races.
#include <cstdio>
#include <cstring>
#include <thread>

#include "absl/synchronization/mutex.h"

int main(int argc, char** argv) {
  if (argc != 2 || (std::strcmp(argv[1], "locked") != 0 && std::strcmp(argv[1], "unlocked") != 0)) {
    std::fprintf(stderr, "usage: %s locked|unlocked\n", argv[0]);
    return 2;
  }
  const bool skip_mutex = std::strcmp(argv[1], "unlocked") == 0;
  absl::Mutex mutex;
  long counter = 0;
  bool done = false;
  std::thread other([&] {
    for (int i = 0; i < 1000; ++i) {
      absl::MutexLock lock(&mutex);
      ++counter;
    }
    absl::MutexLock lock(&mutex);
    done = true;
  });
  for (int i = 0; i < 1000; ++i) {
    if (skip_mutex) {
      ++counter;
    } else {
      absl::MutexLock lock(&mutex);
      ++counter;
    }
  }
  {
    absl::MutexLock lock(&mutex);
    mutex.Await(absl::Condition(&done));
  }
  other.join();
  std::printf("counter = %ld\n", counter);
  return 0;
}
