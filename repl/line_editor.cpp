// LineEditor implementations: libedit's native el_*/history API on a terminal, and a plain
// reader of a file descriptor for piped input.
//
// Ctrl-C: the terminal keeps turning ^C into SIGINT, also while a line is edited, and main.cpp's
// handler raises the REPL's interrupt flag. The signal may land on any thread (the
// interpreter runs on its own thread, and libraries start more), so a blocked read cannot rely
// on EINTR; instead both readers wait with poll() in short slices and look at the flag in
// between. For libedit that is its character source (EL_GETCFN): it returns -1 when the flag
// is raised, el_gets gives up the line, and readLine reports Interrupted. The native el_*
// API (not the readline emulation) is what offers that hook, and tells us count -1 from end of
// input. libedit's own signal handling (EL_SIGNAL) stays off: it re-raises signals to the whole
// process group.
#include "repl/line_editor.h"

#include <histedit.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <iostream>
#include <utility>

namespace tessel::repl {

namespace {

// libedit decodes input with the C library's multibyte functions, so it needs a UTF-8 LC_CTYPE
// to edit non-ASCII text. Only LC_CTYPE changes: number formatting stays in the "C" locale.
void useUtf8Ctype() {
  const char* got = std::setlocale(LC_CTYPE, "");
  if (!got || std::strcmp(got, "C") == 0 || std::strcmp(got, "POSIX") == 0)
    std::setlocale(LC_CTYPE, "C.UTF-8");
}

std::string commonPrefix(const std::vector<std::string>& words) {
  std::string prefix = words.front();
  for (const std::string& w : words) {
    size_t n = 0;
    while (n < prefix.size() && n < w.size() && prefix[n] == w[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

int terminalColumns() {
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

// Prints candidates in columns, as shells list ambiguous completions.
void printCandidates(FILE* out, const std::vector<std::string>& words) {
  size_t width = 0;
  for (const std::string& w : words) width = std::max(width, w.size());
  width += 2;
  size_t perRow = std::max<size_t>(1, static_cast<size_t>(terminalColumns()) / width);
  size_t rows = (words.size() + perRow - 1) / perRow;
  std::fputc('\n', out);
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < perRow; ++c) {
      size_t i = c * rows + r;  // column-major, like ls
      if (i >= words.size()) break;
      std::fprintf(out, "%-*s", static_cast<int>(width), words[i].c_str());
    }
    std::fputc('\n', out);
  }
}

// How long a blocked read sleeps between looks at the interrupt flag.
constexpr int kPollMs = 30;

enum class Wait { Ready, Interrupted, Failed };

// Waits until `fd` is readable or the interrupt flag is raised (then lowered again).
Wait waitReadable(int fd, std::atomic<bool>* interrupt) {
  for (;;) {
    if (interrupt && interrupt->exchange(false)) return Wait::Interrupted;
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, interrupt ? kPollMs : -1);
    if (r > 0) return Wait::Ready;
    if (r < 0 && errno != EINTR) return Wait::Failed;
  }
}

class EditLineEditor : public LineEditor {
 public:
  EditLineEditor() {
    useUtf8Ctype();
    history_ = ::history_init();
    HistEvent ev;
    ::history(history_, &ev, H_SETSIZE, 1000);
    ::history(history_, &ev, H_SETUNIQUE, 1);
    el_ = el_init("tessel", stdin, stdout, stderr);
    el_set(el_, EL_CLIENTDATA, this);
    el_set(el_, EL_EDITOR, "emacs");
    el_set(el_, EL_SIGNAL, 0);
    el_set(el_, EL_GETCFN, &EditLineEditor::readChar);
    el_set(el_, EL_PROMPT, &EditLineEditor::promptOf);
    el_set(el_, EL_HIST, ::history, history_);
    el_set(el_, EL_ADDFN, "tessel-complete", "complete the name before the cursor",
           &EditLineEditor::completeKey);
    el_set(el_, EL_BIND, "^I", "tessel-complete", nullptr);
    el_source(el_, nullptr);  // the user's ~/.editrc, if any
  }
  ~EditLineEditor() override {
    el_end(el_);
    ::history_end(history_);
  }

  Result readLine(const std::string& prompt) override {
    prompt_ = prompt;
    std::cout.flush();
    std::fflush(stdout);
    int count = 0;
    errno = 0;
    interrupted_ = false;
    if (interrupt_) interrupt_->store(false);  // a ^C that ended the last computation is spent
    // Editing mode before the prompt shows, not at the first key: on the first call el_gets
    // would print the prompt while the terminal is still cooked, and a ^D typed at once would be
    // eaten by the terminal's line discipline.
    el_set(el_, EL_PREP_TERM, 1);
    const char* line = el_gets(el_, &count);
    if (interrupted_) {
      std::fputs("^C\n", stdout);
      std::fflush(stdout);
      return {Status::Interrupted, ""};
    }
    if (!line || count <= 0) {
      if (count < 0) return {Status::EndOfInput, ""};
      std::fputc('\n', stdout);  // Ctrl-D leaves the cursor after the prompt
      std::fflush(stdout);
      return {Status::EndOfInput, ""};
    }
    std::string text(line, static_cast<size_t>(count));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return {Status::Line, std::move(text)};
  }

  void addHistory(const std::string& line) override {
    HistEvent ev;
    ::history(history_, &ev, H_ENTER, line.c_str());
  }

  void setCompleter(Completer completer) override { completer_ = std::move(completer); }
  void setInterruptFlag(std::atomic<bool>* flag) override { interrupt_ = flag; }
  bool interactive() const override { return true; }

 private:
  static EditLineEditor& self(EditLine* el) {
    void* data = nullptr;
    el_get(el, EL_CLIENTDATA, &data);
    return *static_cast<EditLineEditor*>(data);
  }

  static char* promptOf(EditLine* el) { return self(el).prompt_.data(); }

  static unsigned char completeKey(EditLine* el, int) { return self(el).complete(); }

  // libedit's character source: one character from stdin, decoded from the locale's multibyte
  // form, or -1 (el_gets gives up the line) when the interrupt flag is raised meanwhile.
  static int readChar(EditLine* el, wchar_t* out) {
    EditLineEditor& me = self(el);
    std::mbstate_t state{};
    for (;;) {
      switch (waitReadable(STDIN_FILENO, me.interrupt_)) {
        case Wait::Interrupted:
          me.interrupted_ = true;
          return -1;
        case Wait::Failed:
          return -1;
        case Wait::Ready:
          break;
      }
      char byte;
      ssize_t n = ::read(STDIN_FILENO, &byte, 1);
      if (n == 0) return 0;
      if (n < 0) {
        if (errno == EINTR || errno == EAGAIN) continue;
        return -1;
      }
      size_t r = std::mbrtowc(out, &byte, 1, &state);
      if (r == static_cast<size_t>(-2)) continue;  // more bytes of this character follow
      if (r == static_cast<size_t>(-1)) {
        *out = static_cast<unsigned char>(byte);  // not valid in the locale: pass the byte on
        state = std::mbstate_t{};
      }
      return 1;
    }
  }

  // Tab: insert the longest unambiguous completion; when that adds nothing, list the choices.
  // On a blank line Tab indents.
  unsigned char complete() {
    const LineInfo* li = el_line(el_);
    std::string_view before(li->buffer, static_cast<size_t>(li->cursor - li->buffer));
    Completion c = completer_ ? completer_(before) : Completion{};
    if (c.candidates.empty()) {
      if (before.find_first_not_of(" \t") == std::string_view::npos) {
        el_insertstr(el_, "    ");
        return CC_REFRESH;
      }
      return CC_ERROR;
    }
    size_t typed = before.size() - std::min(c.start, before.size());
    std::string prefix = commonPrefix(c.candidates);
    if (prefix.size() > typed) {
      el_insertstr(el_, prefix.substr(typed).c_str());
      return CC_REFRESH;
    }
    if (c.candidates.size() == 1) {  // already complete: say what it is, if the docs know
      if (c.doc.empty()) return CC_NORM;
      std::fprintf(stdout, "\n%s\n", c.doc.c_str());
      return CC_REDISPLAY;
    }
    printCandidates(stdout, c.candidates);
    return CC_REDISPLAY;
  }

  EditLine* el_ = nullptr;
  History* history_ = nullptr;
  std::string prompt_;
  Completer completer_;
  std::atomic<bool>* interrupt_ = nullptr;
  bool interrupted_ = false;
};

// Reads lines from a descriptor with read(2), so that Ctrl-C (EINTR) is seen as an interrupt
// rather than as the end of input, as it would be with std::getline.
class PlainLineReader : public LineEditor {
 public:
  explicit PlainLineReader(int fd) : fd_(fd) {}

  Result readLine(const std::string&) override {
    std::cout.flush();
    if (interrupt_) interrupt_->store(false);
    for (;;) {
      size_t nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        return {Status::Line, std::move(line)};
      }
      if (eof_) {
        if (buffer_.empty()) return {Status::EndOfInput, ""};
        return {Status::Line, std::exchange(buffer_, std::string())};
      }
      Wait w = waitReadable(fd_, interrupt_);
      if (w == Wait::Interrupted) {
        buffer_.clear();
        return {Status::Interrupted, ""};
      }
      char chunk[4096];
      ssize_t n = w == Wait::Ready ? ::read(fd_, chunk, sizeof chunk) : -1;
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0)
        eof_ = true;
      else
        buffer_.append(chunk, static_cast<size_t>(n));
    }
  }
  void addHistory(const std::string&) override {}
  void setCompleter(Completer) override {}
  void setInterruptFlag(std::atomic<bool>* flag) override { interrupt_ = flag; }
  bool interactive() const override { return false; }

 private:
  int fd_;
  std::atomic<bool>* interrupt_ = nullptr;
  std::string buffer_;
  bool eof_ = false;
};

}  // namespace

std::unique_ptr<LineEditor> LineEditor::forStdin() {
  if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) return std::make_unique<EditLineEditor>();
  return plain(STDIN_FILENO);
}

std::unique_ptr<LineEditor> LineEditor::plain(int fd) {
  return std::make_unique<PlainLineReader>(fd);
}

}  // namespace tessel::repl
