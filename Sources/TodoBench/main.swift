// Parses and indexes a todo.txt file several times and reports the best and median times,
// throughput and the process's peak memory. Usage: todo-bench FILE [RUNS]
//
// Each run reads the file, splits it into lines (TodoList) and indexes it (TodoIndex), as one
// invocation of the command line tool would. The peak memory reported is the one after the
// first run, which is what such an invocation holds; later runs only add allocator leftovers.
@preconcurrency import Glibc
import TodoTxt

/// The file's bytes, read straight into the array's storage (no zero-filling first).
func readFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { return nil }
  let size = Int(info.st_size)
  var failed = false
  let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
    while initialized < size {
      guard let base = buffer.baseAddress else { break }
      let n = read(fd, base + initialized, size - initialized)
      if n <= 0 {
        failed = true
        break
      }
      initialized += n
    }
  }
  return failed ? nil : bytes
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The process's peak resident memory so far, in KiB.
func peakMemory() -> Int {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return usage.ru_maxrss
}

func format3(_ x: Double) -> String {
  let ms = Int((x * 1000).rounded())
  let fraction = String(ms % 1000)
  return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  fputs("usage: todo-bench FILE [RUNS]\n", stderr)
  exit(2)
}
let path = arguments[1]
let runs = max(1, arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
var readTimes: [Double] = []
var splitTimes: [Double] = []
var totalTimes: [Double] = []
var summary = ""
var size = 0
var firstRunPeak = 0
for run in 0..<runs {
  let t0 = now()
  guard let bytes = readFile(path) else {
    fputs("todo-bench: cannot read '\(path)'\n", stderr)
    exit(1)
  }
  let t1 = now()
  let list = TodoList(bytes: bytes)
  let t2 = now()
  let index = TodoIndex(list)
  let t3 = now()
  readTimes.append(t1 - t0)
  splitTimes.append(t2 - t1)
  totalTimes.append(t3 - t1)
  size = bytes.count
  if run == 0 { firstRunPeak = peakMemory() }
  summary =
    "\(bytes.count) bytes, \(list.count) lines, \(index.taskCount) tasks, \(index.completedCount) done, "
    + "\(index.projects.count) projects, \(index.contexts.count) contexts, \(index.tagKeys.count) tag keys, "
    + "\(index.dueDates.count) due dates"
}
let median = totalTimes.sorted()[runs / 2]
let best = totalTimes.sorted()[0]
let mib = 1024.0 * 1024.0
print(summary)
print("read file:        median \(format3(readTimes.sorted()[runs / 2])) s (not counted below)")
print("split into lines: median \(format3(splitTimes.sorted()[runs / 2])) s")
print("parse + index:    median \(format3(median)) s, best \(format3(best)) s, \(Int(Double(size) / median / 1e6)) MB/s")
print(
  "peak memory:      \(firstRunPeak / 1024) MiB after one run, \(peakMemory() / 1024) MiB after \(runs) "
    + "(file \(format3(Double(size) / mib)) MiB, ratio \(format3(Double(firstRunPeak) * 1024 / Double(max(size, 1)))))")
// One line for scripts: bytes, runs, median s, best s, peak KiB after one run.
print("result\t\(size)\t\(runs)\t\(median)\t\(best)\t\(firstRunPeak)")
