// Note [A wall-clock net under rlimit]
// Every query runs under Z3's deterministic rlimit, and that stays the limit that decides
// answers. But Debian's Z3 4.8.12 does not count all of its work against rlimit: fuzz_shapes
// found a QF_NIA check (maximize of a cubic in s0 and s0 // -8 against 3 * 2^62) that spends
// 7.5 s multiplying big integers at rlimit 100,000, where checks that honour rlimit give up
// after about 0.1 s. CI's 30-s fuzz timeout caught it. So each check also has a wall budget,
// far above what honouring rlimit takes (wallBudgetFor: 5 us per rlimit unit, at least
// 500 ms), and a watchdog thread calls Z3_interrupt on a check past it. Z3 answers the
// interrupted check `unknown`, which, like any unknown, keeps the guard
// (ShapeEnvStats::solverInterrupts counts them). Measured: the 7.5-s check returns after
// 0.9 s; Z3 notices an interrupt only between its inner loops.
//
// Z3's own `timeout` parameter is not used: its timer threads deadlocked the tpu suite on
// 4.8.12. Z3_interrupt is made to be called from another thread, and a stale interrupt (the
// check returned just before) is harmless: the next check starts with the flag cleared.
//
// One watchdog thread serves every context of the process. Arming a check takes a lock and a
// map insert; it wakes the thread only when the thread sleeps without a deadline, which it
// does only after a second without checks, so a compile's burst of queries costs one wake-up.
// The thread and its state are never destroyed: checks can run while statics are destroyed.
#include "shapes/solver_deadline.h"

#include <pthread.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <new>
#include <thread>

namespace tessel::shapes {

std::chrono::milliseconds wallBudgetFor(uint32_t rlimit) {
  return std::chrono::milliseconds(std::max<uint64_t>(500, uint64_t{rlimit} / 200));
}

namespace {

using Clock = std::chrono::steady_clock;

class Watchdog {
 public:
  static Watchdog& instance() {
    static Watchdog* w = [] {
      auto* made = new Watchdog();
      pthread_atfork(nullptr, nullptr, [] { instance().afterForkInChild(); });
      return made;
    }();
    return *w;
  }

  uint64_t arm(ScopedCheckDeadline::Interrupt interrupt, void* arg, Clock::time_point deadline) {
    std::lock_guard<std::mutex> lock(mu_);
    startThreadIfNeeded();
    uint64_t ticket = next_++;
    armed_.emplace(ticket, Entry{interrupt, arg, deadline});
    if (sleepingWithoutDeadline_) wake_.notify_one();
    return ticket;
  }
  void disarm(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mu_);
    armed_.erase(ticket);
  }
  bool fired(uint64_t ticket) {
    std::lock_guard<std::mutex> lock(mu_);
    return !armed_.contains(ticket);
  }

 private:
  struct Entry {
    ScopedCheckDeadline::Interrupt interrupt;
    void* arg;
    Clock::time_point deadline;
  };

  void startThreadIfNeeded() {
    if (started_) return;
    started_ = true;
    std::thread([this] { loop(); }).detach();
  }
  // A forked child has one thread and no watchdog: the first check there starts its own. The
  // lock may have been held by the parent's watchdog at the fork, so it is made anew; checks
  // armed by the parent's other threads never end in the child.
  void afterForkInChild() {
    new (&mu_) std::mutex;
    new (&wake_) std::condition_variable;
    armed_.clear();
    started_ = false;
    sleepingWithoutDeadline_ = false;
  }

  void loop() {
    constexpr auto kPoll = std::chrono::milliseconds(100);
    constexpr auto kIdleBeforeSleep = std::chrono::seconds(1);
    std::unique_lock<std::mutex> lock(mu_);
    Clock::time_point lastBusy = Clock::now();
    for (;;) {
      Clock::time_point now = Clock::now();
      if (armed_.empty()) {
        if (now - lastBusy < kIdleBeforeSleep) {
          wake_.wait_for(lock, kPoll);
          continue;
        }
        sleepingWithoutDeadline_ = true;
        wake_.wait(lock, [&] { return !armed_.empty(); });
        sleepingWithoutDeadline_ = false;
        continue;
      }
      lastBusy = now;
      // Interrupt under the lock: once disarm() returns, its check is never interrupted.
      Clock::time_point earliest = Clock::time_point::max();
      for (auto it = armed_.begin(); it != armed_.end();) {
        if (it->second.deadline <= now) {
          it->second.interrupt(it->second.arg);
          it = armed_.erase(it);
        } else {
          earliest = std::min(earliest, it->second.deadline);
          ++it;
        }
      }
      // Checks armed meanwhile do not wake the thread: it looks again within kPoll.
      wake_.wait_until(lock, std::min(earliest, now + kPoll));
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::map<uint64_t, Entry> armed_;
  uint64_t next_ = 1;
  bool started_ = false;
  bool sleepingWithoutDeadline_ = false;
};

}  // namespace

ScopedCheckDeadline::ScopedCheckDeadline(Interrupt interrupt, void* arg,
                                         std::chrono::milliseconds budget)
    : ticket_(Watchdog::instance().arm(interrupt, arg, Clock::now() + budget)) {}

ScopedCheckDeadline::~ScopedCheckDeadline() { Watchdog::instance().disarm(ticket_); }

bool ScopedCheckDeadline::fired() const { return Watchdog::instance().fired(ticket_); }

}  // namespace tessel::shapes
