// Tests of io/file_write.h: atomic whole-file writes and non-blocking stream opens, against
// real failures (a file-size limit as a full disk, /dev/full, a FIFO, a folder that cannot be
// written, symlinks).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <latch>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/file_write.h"
#include "io/line_file.h"

namespace fabrik::io {
namespace {

namespace fs = std::filesystem;

class FileWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    char name[] = "/tmp/fabrik-io-XXXXXX";
    ASSERT_NE(::mkdtemp(name), nullptr);
    dir_ = name;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }
  static std::string Read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static void Put(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
  }
  // Every name in the folder: a failed or finished write leaves no temporary file.
  std::vector<std::string> Names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string dir_;
};

TEST_F(FileWrite, WritesReplacesAndKeepsPermissions) {
  const std::string p = Path("a.txt");
  ASSERT_TRUE(WriteFileAtomic(p, "first\n"));
  EXPECT_EQ(Read(p), "first\n");
  ASSERT_EQ(::chmod(p.c_str(), 0640), 0);
  const Status s = WriteFileAtomic(p, std::string(100000, 'x'));
  ASSERT_TRUE(s) << s.error();
  EXPECT_EQ(Read(p), std::string(100000, 'x'));
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(Names(), std::vector<std::string>{"a.txt"});
  WriteOptions synced;
  synced.sync = true;
  EXPECT_TRUE(WriteFileAtomic(p, "", synced));
  EXPECT_EQ(Read(p), "");
}

TEST_F(FileWrite, SymlinkIsWrittenThroughAndKept) {
  const std::string target = Path("real.json");
  Put(target, "old");
  ASSERT_EQ(::symlink("real.json", Path("link.json").c_str()), 0);                 // relative link
  ASSERT_EQ(::symlink(Path("link.json").c_str(), Path("link2.json").c_str()), 0);  // to a link
  ASSERT_TRUE(WriteFileAtomic(Path("link2.json"), "new"));
  EXPECT_TRUE(fs::is_symlink(Path("link.json")));
  EXPECT_TRUE(fs::is_symlink(Path("link2.json")));
  EXPECT_EQ(Read(target), "new");
  // A dangling link creates its target.
  ASSERT_EQ(::symlink("made.txt", Path("dangling").c_str()), 0);
  ASSERT_TRUE(WriteFileAtomic(Path("dangling"), "made"));
  EXPECT_TRUE(fs::is_symlink(Path("dangling")));
  EXPECT_EQ(Read(Path("made.txt")), "made");
  EXPECT_EQ(Names(), (std::vector<std::string>{"dangling", "link.json", "link2.json", "made.txt",
                                               "real.json"}));
}

TEST_F(FileWrite, LinkLoopIsAnError) {
  ASSERT_EQ(::symlink("b", Path("a").c_str()), 0);
  ASSERT_EQ(::symlink("a", Path("b").c_str()), 0);
  const Status s = WriteFileAtomic(Path("a"), "x");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find(ErrnoText(ELOOP)), std::string::npos) << s.error();
}

TEST_F(FileWrite, FifoIsRefusedWithoutBlocking) {
  const std::string fifo = Path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Nobody reads the FIFO: an open that blocked would hang this test (and ctest's timeout
  // would fail it).
  const Status s = WriteFileAtomic(fifo, "x");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("FIFO"), std::string::npos) << s.error();
  const Result<int> fd = OpenStreamOutput(fifo);
  ASSERT_FALSE(fd);
  EXPECT_NE(fd.error().find("FIFO"), std::string::npos) << fd.error();
  // A symlink to the FIFO is followed and refused too.
  ASSERT_EQ(::symlink(fifo.c_str(), Path("to-pipe").c_str()), 0);
  EXPECT_FALSE(WriteFileAtomic(Path("to-pipe"), "x"));
  EXPECT_FALSE(OpenStreamOutput(Path("to-pipe")));
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(Names(), (std::vector<std::string>{"pipe", "to-pipe"}));
}

TEST_F(FileWrite, FolderIsRefused) {
  fs::create_directory(Path("sub"));
  EXPECT_FALSE(WriteFileAtomic(Path("sub"), "x"));
  EXPECT_FALSE(OpenStreamOutput(Path("sub")));
  EXPECT_TRUE(fs::is_directory(Path("sub")));
}

TEST_F(FileWrite, DeviceIsNeverReplacedAndDevFullFailsItsWrites) {
  const Status s = WriteFileAtomic("/dev/full", "x");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("character device"), std::string::npos) << s.error();
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  // A stream may go to a character device; /dev/full fails every write with ENOSPC.
  const Result<int> fd = OpenStreamOutput("/dev/full");
  ASSERT_TRUE(fd) << fd.error();
  EXPECT_EQ(WriteAll(fd.value(), "line\n"), ENOSPC);
  ::close(fd.value());
}

// A file-size limit makes write() fail with EFBIG part way, as a full disk does with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    old_signal_ = std::signal(SIGXFSZ, SIG_IGN);  // else the signal ends the process
    ::getrlimit(RLIMIT_FSIZE, &old_);
    rlimit lower = old_;
    lower.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lower);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, old_signal_);
  }

 private:
  rlimit old_{};
  void (*old_signal_)(int) = nullptr;
};

TEST_F(FileWrite, FailedWriteLeavesTheTargetAndNoTemporaryFile) {
  const std::string p = Path("shot.png");
  Put(p, "the old picture");
  Status s = Ok{};
  {
    FileSizeLimit limit(4096);
    s = WriteFileAtomic(p, std::string(1 << 16, 'p'));
  }
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find(p), std::string::npos) << s.error();
  EXPECT_NE(s.error().find(ErrnoText(EFBIG)), std::string::npos) << s.error();
  EXPECT_EQ(s.error().find("Success"), std::string::npos) << s.error();
  EXPECT_EQ(Read(p), "the old picture");
  EXPECT_EQ(Names(), std::vector<std::string>{"shot.png"});
}

TEST_F(FileWrite, FolderThatCannotBeWrittenIsReportedWithItsReason) {
  // /proc/self takes no new files, even for root (a chmod 0555 folder does not stop root).
  const Status s = WriteFileAtomic("/proc/self/fabrik-io-test.png", "x");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find("/proc/self/fabrik-io-test.png"), std::string::npos) << s.error();
  EXPECT_EQ(s.error().find("Success"), std::string::npos) << s.error();
  const Status missing = WriteFileAtomic(Path("no/such/folder.png"), "x");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find(ErrnoText(ENOENT)), std::string::npos) << missing.error();
}

TEST_F(FileWrite, BackUpKeepsTheFileItWasToldToKeepOnce) {
  const std::string p = Path("settings.json");
  Put(p, "{not json");
  const std::optional<FileId> unread = IdentifyFile(p);
  ASSERT_TRUE(unread);
  WriteOptions keep;
  keep.back_up = unread;
  ASSERT_TRUE(WriteFileAtomic(p, "{}\n", keep));
  EXPECT_EQ(Read(p), "{}\n");
  EXPECT_EQ(Read(p + ".bak"), "{not json");
  // The file now is a new one: a second write makes no backup over the kept one.
  ASSERT_TRUE(WriteFileAtomic(p, "{\"a\": 1}\n", keep));
  EXPECT_EQ(Read(p + ".bak"), "{not json");
  EXPECT_EQ(Names(), (std::vector<std::string>{"settings.json", "settings.json.bak"}));
}

TEST_F(FileWrite, WritersRacingToBackUpTheSameFileNeverLoseIt) {
  // Two demos sharing a settings folder both found settings.json unusable and both keep it as
  // settings.json.bak when they save. Whatever the order of their steps, the backup must end
  // up holding the user's file, never one writer's new file renamed over it. Four writers
  // start together, many times over: checking the identity and then renaming the target lost
  // the user's file in most rounds.
  const std::string p = Path("settings.json");
  constexpr int kRounds = 200;
  constexpr int kWriters = 4;
  for (int round = 0; round < kRounds; ++round) {
    std::error_code ec;
    fs::remove(p + ".bak", ec);
    Put(p, "the user's file");
    const std::optional<FileId> unread = IdentifyFile(p);
    ASSERT_TRUE(unread);
    WriteOptions keep;
    keep.back_up = unread;
    std::latch start(kWriters);
    std::vector<std::thread> writers;
    std::vector<std::string> errors(kWriters);
    for (int w = 0; w < kWriters; ++w) {
      writers.emplace_back([&, w] {
        start.arrive_and_wait();
        const Status s = WriteFileAtomic(p, "writer " + std::to_string(w), keep);
        if (!s) errors[w] = s.error();
      });
    }
    for (std::thread& t : writers) t.join();
    for (const std::string& e : errors) EXPECT_EQ(e, "") << "round " << round;
    ASSERT_EQ(Read(p + ".bak"), "the user's file") << "round " << round;
    EXPECT_EQ(Read(p).rfind("writer ", 0), 0u) << Read(p);
    ASSERT_EQ(Names(), (std::vector<std::string>{"settings.json", "settings.json.bak"}))
        << "round " << round;
  }
}

TEST_F(FileWrite, LineFileWhoseFolderWasDeletedIsNotCalledWritten) {
  // The lines of a recording whose folder was deleted while it ran went to a file nobody can
  // reach: closing it must say so rather than succeed.
  fs::create_directory(Path("takes"));
  const std::string p = Path("takes/path.txt");
  Result<LineFile> f = LineFile::Open(p);
  ASSERT_TRUE(f) << f.error();
  ASSERT_TRUE(f.value().Write("at 0 target 1 2 3\n"));
  fs::remove_all(Path("takes"));
  ASSERT_TRUE(f.value().Write("at 1 target 1 2 4\n"));  // the orphaned file still takes writes
  const Status closed = f.value().Close();
  ASSERT_FALSE(closed);
  EXPECT_NE(closed.error().find(p), std::string::npos) << closed.error();
  EXPECT_NE(closed.error().find("removed or replaced"), std::string::npos) << closed.error();
  EXPECT_TRUE(f.value().failed());
  // A file replaced under the same name is not the one written either.
  const std::string q = Path("replaced.txt");
  Result<LineFile> g = LineFile::Open(q);
  ASSERT_TRUE(g) << g.error();
  ASSERT_TRUE(fs::remove(q));
  Put(q, "someone else's file");
  EXPECT_FALSE(g.value().Close());
  EXPECT_EQ(Read(q), "someone else's file");
  // A file left where it was closes cleanly.
  Result<LineFile> h = LineFile::Open(Path("kept.txt"));
  ASSERT_TRUE(h) << h.error();
  ASSERT_TRUE(h.value().Write("line\n"));
  EXPECT_TRUE(h.value().Close());
  EXPECT_EQ(Read(Path("kept.txt")), "line\n");
}

TEST_F(FileWrite, StreamOutputTruncatesOrAppends) {
  const std::string p = Path("state.jsonl");
  Put(p, "old\n");
  Result<int> fd = OpenStreamOutput(p);
  ASSERT_TRUE(fd) << fd.error();
  EXPECT_EQ(WriteAll(fd.value(), "a\n"), 0);
  ::close(fd.value());
  fd = OpenStreamOutput(p, /*append=*/true);
  ASSERT_TRUE(fd) << fd.error();
  EXPECT_EQ(WriteAll(fd.value(), "b\n"), 0);
  ::close(fd.value());
  EXPECT_EQ(Read(p), "a\nb\n");
  const Result<int> none = OpenStreamOutput(Path("no/such/file"));
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find(ErrnoText(ENOENT)), std::string::npos) << none.error();
}

TEST_F(FileWrite, LineFileReportsTheFirstFailureOnceAndEndsWithAWholeLine) {
  const std::string p = Path("rec.txt");
  Result<LineFile> opened = LineFile::Open(p);
  ASSERT_TRUE(opened) << opened.error();
  LineFile file = std::move(opened).value();
  std::string written;
  Status first = Ok{};
  int failures = 0;
  {
    FileSizeLimit limit(10000);
    for (int i = 0; i < 2000; ++i) {
      // Lines of varying length, several per write, so a write fails part way through.
      std::string lines;
      for (int k = 0; k <= i % 3; ++k) {
        lines += "at " + std::to_string(i) + "." + std::to_string(k) + " target 1 2 3\n";
      }
      const Status s = file.Write(lines);
      if (!s) {
        ++failures;
        first = s;
      } else if (file.is_open()) {
        written += lines;
      }
    }
  }
  EXPECT_EQ(failures, 1);
  ASSERT_FALSE(first);
  EXPECT_NE(first.error().find(ErrnoText(EFBIG)), std::string::npos) << first.error();
  EXPECT_TRUE(file.failed());
  EXPECT_FALSE(file.is_open());
  const std::string content = Read(p);
  EXPECT_EQ(content, written);
  ASSERT_FALSE(content.empty());
  EXPECT_EQ(content.back(), '\n');
  EXPECT_LE(content.size(), 10000u);
}

TEST_F(FileWrite, LineFileOnDevFullFailsOnceAndFifoIsRefused) {
  Result<LineFile> full = LineFile::Open("/dev/full");
  ASSERT_TRUE(full) << full.error();
  const Status s = full.value().Write("line\n");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().find(ErrnoText(ENOSPC)), std::string::npos) << s.error();
  EXPECT_TRUE(full.value().Write("more\n"));  // reported once; nothing more is tried
  EXPECT_FALSE(full.value().is_open());
  ASSERT_EQ(::mkfifo(Path("pipe").c_str(), 0600), 0);
  const Result<LineFile> fifo = LineFile::Open(Path("pipe"));
  ASSERT_FALSE(fifo);
  EXPECT_NE(fifo.error().find("FIFO"), std::string::npos) << fifo.error();
}

TEST(ErrnoText, NamesTheReasonAndNeverSaysSuccess) {
  EXPECT_NE(ErrnoText(ENOSPC).find("No space"), std::string::npos);
  EXPECT_EQ(ErrnoText(0), "unknown error");
}

}  // namespace
}  // namespace fabrik::io
